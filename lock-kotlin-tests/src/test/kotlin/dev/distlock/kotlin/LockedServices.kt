/*
 * Copyright 2026-present the original author or authors.
 *
 * Licensed under the Apache License, Version 2.0 (the "License");
 * you may not use this file except in compliance with the License.
 * You may obtain a copy of the License at
 *
 *      https://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing, software
 * distributed under the License is distributed on an "AS IS" BASIS,
 * WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
 * See the License for the specific language governing permissions and
 * limitations under the License.
 */

package dev.distlock.kotlin

import dev.distlock.DistributedLock
import dev.distlock.LockFailureAction
import dev.distlock.reactive.ReactiveLockContext
import dev.distlock.test.concurrent.HoldLog
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.reactor.awaitSingleOrNull
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.springframework.data.redis.core.ReactiveStringRedisTemplate
import org.springframework.stereotype.Component

/** The Redis key of the innermost lock the current coroutine holds. */
suspend fun heldRedisKey(): String = ReactiveLockContext.current().awaitSingle().key()

/** The fencing token of the innermost lock the current coroutine holds. */
suspend fun fencingToken(): Long = ReactiveLockContext.fencingToken().awaitSingle()

/** A counter in Redis, incremented by a non-atomic read-modify-write that only the lock makes safe. */
@Component
class Counter(private val redis: ReactiveStringRedisTemplate) {

	val holds = HoldLog()

	@DistributedLock(key = "'kt:counter:' + #name", waitTime = "60s")
	suspend fun increment(name: String) {
		val start = System.nanoTime()
		val current = redis.opsForValue().get(valueKey(name)).awaitSingleOrNull()?.toLong() ?: 0L
		yield()
		redis.opsForValue().set(valueKey(name), (current + 1).toString()).awaitSingle()
		holds.record(start, System.nanoTime())
	}

	suspend fun value(name: String): Long =
		redis.opsForValue().get(valueKey(name)).awaitSingleOrNull()?.toLong() ?: 0L

	private fun valueKey(name: String) = "kt:counter-value:$name"

}

/** Locked suspend functions that hold, fail, read their fencing token, or give up when the lock is busy. */
@Component
class Holds {

	/** Holds the lock until [release] completes, having completed [entered] with the Redis key. */
	@DistributedLock(key = "#key")
	suspend fun holdUntil(key: String, entered: CompletableDeferred<String>, release: CompletableDeferred<Unit>): Long {
		entered.complete(heldRedisKey())
		release.await()
		return fencingToken()
	}

	@DistributedLock(key = "#key", waitTime = "0")
	suspend fun tryNow(key: String): String = "ran"

	@DistributedLock(key = "#key", waitTime = "5s")
	suspend fun waitFor(key: String): String = "ran"

	@DistributedLock(key = "#key")
	suspend fun failAfterSuspending(key: String, redisKey: CompletableDeferred<String>): String {
		redisKey.complete(heldRedisKey())
		yield()
		throw IllegalStateException("failed under the lock")
	}

	/** The fencing token read before a suspension, after it, and on another dispatcher. */
	@DistributedLock(key = "#key")
	suspend fun fencingTokens(key: String): List<Long> {
		val first = fencingToken()
		yield()
		val afterSuspension = fencingToken()
		val onAnotherDispatcher = withContext(Dispatchers.IO) { fencingToken() }
		return listOf(first, afterSuspension, onAnotherDispatcher)
	}

	@DistributedLock(key = "#key", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
	suspend fun skipIfBusy(key: String): String? = "ran"

	@DistributedLock(key = "#key", waitTime = "0", fallbackMethod = "whenBusy")
	suspend fun orFallback(key: String): String = "ran"

	suspend fun whenBusy(key: String): String {
		yield()
		return "fallback for $key"
	}

}

/** Calls [Inner] under the same lock, to re-enter it. */
@Component
class Outer(private val inner: Inner, private val redis: ReactiveStringRedisTemplate) {

	/** Returns the outer and inner fencing tokens, and whether the lock was still in Redis after the inner call. */
	@DistributedLock(key = "#key")
	suspend fun outer(key: String): Triple<Long, Long, Boolean> {
		val outerToken = fencingToken()
		yield()
		val innerToken = inner.inner(key)
		val stillHeld = redis.hasKey(heldRedisKey()).awaitSingle()
		return Triple(outerToken, innerToken, stillHeld)
	}

	@DistributedLock(key = "#key")
	suspend fun outerCollecting(key: String): List<Long> {
		val outerToken = fencingToken()
		val inFlow = mutableListOf(outerToken)
		inner.tokens(key).collect { inFlow.add(it) }
		return inFlow
	}

}

/** Locked with a wait time of zero: it only runs if its caller already holds the lock. */
@Component
class Inner {

	@DistributedLock(key = "#key", waitTime = "0")
	suspend fun inner(key: String): Long {
		yield()
		return fencingToken()
	}

	@DistributedLock(key = "#key", waitTime = "0")
	fun tokens(key: String): Flow<Long> = flow {
		emit(fencingToken())
	}

}

/** Locked `Flow`s: the lock is held while they are collected. */
@Component
class Feeds {

	/** Emits the Redis key of its lock [count] times. */
	@DistributedLock(key = "#key")
	fun lockedKeys(key: String, count: Int): Flow<String> = flow {
		val redisKey = heldRedisKey()
		repeat(count) {
			emit(redisKey)
		}
	}

	/** Emits the Redis key of its lock until the collector stops. */
	@DistributedLock(key = "#key")
	fun endless(key: String): Flow<String> = flow {
		val redisKey = heldRedisKey()
		while (true) {
			emit(redisKey)
		}
	}

	/** A suspend function returning a Flow: also locked while the Flow is collected. */
	@DistributedLock(key = "#key")
	suspend fun suspendingFeed(key: String): Flow<Long> {
		yield()
		return flow {
			emit(fencingToken())
		}
	}

	@DistributedLock(key = "#key", waitTime = "0", onNotAcquired = LockFailureAction.SKIP)
	fun skippedWhenBusy(key: String): Flow<String> = flow {
		emit("ran")
	}

	@DistributedLock(key = "#key", waitTime = "0")
	fun failingWhenBusy(key: String): Flow<String> = flow {
		emit("ran")
	}

}
