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

import dev.distlock.LockNotAcquiredException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.data.redis.core.StringRedisTemplate
import java.time.Duration

/** A locked `suspend fun` holds its lock across its suspensions and releases it however it ends. */
@KotlinLockTest
class SuspendFunctionLockTests(@Autowired val holds: Holds, @Autowired val redis: StringRedisTemplate) {

	@Test
	fun lockIsHeldAcrossSuspensionsUntilTheFunctionReturns(): Unit = runBlocking {
		val key = uniqueKey("held")
		val entered = CompletableDeferred<String>()
		val release = CompletableDeferred<Unit>()
		val holder = async(Dispatchers.Default) { holds.holdUntil(key, entered, release) }
		val redisKey = entered.await()
		assertThat(redis.hasKey(redisKey)).isTrue()
		val refused = runCatching { holds.tryNow(key) }.exceptionOrNull()
		assertThat(refused).isInstanceOf(LockNotAcquiredException::class.java)
		val waiter = async(Dispatchers.Default) { holds.waitFor(key) }
		release.complete(Unit)
		assertThat(holder.await()).isPositive()
		assertThat(waiter.await()).isEqualTo("ran")
		assertThat(redis.hasKey(redisKey)).isFalse()
	}

	@Test
	fun lockIsReleasedWhenTheFunctionThrows(): Unit = runBlocking {
		val key = uniqueKey("throws")
		val redisKey = CompletableDeferred<String>()
		val failure = runCatching { holds.failAfterSuspending(key, redisKey) }.exceptionOrNull()
		assertThat(failure).isInstanceOf(IllegalStateException::class.java).hasMessage("failed under the lock")
		assertThat(redis.hasKey(redisKey.await())).isFalse()
		assertThat(holds.tryNow(key)).isEqualTo("ran")
	}

	@Test
	fun lockIsReleasedWhenTheCoroutineIsCancelled(): Unit = runBlocking {
		val key = uniqueKey("cancelled")
		val entered = CompletableDeferred<String>()
		val holder = launch(Dispatchers.Default) { holds.holdUntil(key, entered, CompletableDeferred()) }
		val redisKey = entered.await()
		assertThat(redis.hasKey(redisKey)).isTrue()
		holder.cancelAndJoin()
		await().atMost(Duration.ofSeconds(10)).until { redis.hasKey(redisKey) == false }
		assertThat(holds.tryNow(key)).isEqualTo("ran")
	}

	@Test
	fun fencingTokenIsReadableInTheBodyAcrossSuspensionsAndDispatchers(): Unit = runBlocking {
		val key = uniqueKey("fenced")
		val first = holds.fencingTokens(key)
		assertThat(first).hasSize(3).allMatch { it == first[0] }
		assertThat(first[0]).isPositive()
		val second = holds.fencingTokens(key)
		assertThat(second[0]).isGreaterThan(first[0])
	}

}
