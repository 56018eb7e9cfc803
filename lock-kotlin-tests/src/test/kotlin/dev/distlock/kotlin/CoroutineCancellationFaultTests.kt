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
import dev.distlock.faults.FaultProxy
import dev.distlock.faults.Pause
import dev.distlock.faults.RedisNode
import dev.distlock.faults.Resp
import kotlinx.coroutines.DelicateCoroutinesApi
import kotlinx.coroutines.GlobalScope
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.async
import kotlinx.coroutines.future.asCompletableFuture
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withTimeout
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.springframework.boot.WebApplicationType
import org.springframework.boot.builder.SpringApplicationBuilder
import org.springframework.context.ConfigurableApplicationContext
import org.springframework.stereotype.Component
import java.time.Duration
import java.util.concurrent.atomic.AtomicInteger

/** A locked suspend function with a fixed 30 s lease that counts the times its body ran. */
@Component
class CountedJob {

	val bodies = AtomicInteger()

	@DistributedLock(key = "#key", waitTime = "2s", leaseTime = "30s")
	suspend fun run(key: String): String {
		bodies.incrementAndGet()
		return "ran"
	}

}

/**
 * Issue 23, coroutines: a locked `suspend fun` whose caller times out (`withTimeout`, which
 * cancels the coroutine) while the acquire's reply is lost: the acquire ran in Redis, and the
 * fault suite's [FaultProxy] keeps its connection silent until a reset 1.5 s later. The body
 * never runs, and the lock is not kept for its 30 s lease: the key is gone within 2 s of the
 * cancellation. The application is [KotlinLockApplication] on its own `redis-server`, through
 * the proxy.
 */
class CoroutineCancellationFaultTests {

	companion object {

		private lateinit var redis: RedisNode

		private lateinit var proxy: FaultProxy

		private lateinit var context: ConfigurableApplicationContext

		@BeforeAll
		@JvmStatic
		fun start() {
			redis = RedisNode.start(RedisNode.Persistence.NONE)
			proxy = FaultProxy.start(redis.port())
			context = SpringApplicationBuilder(KotlinLockApplication::class.java)
				.web(WebApplicationType.NONE)
				.properties("spring.data.redis.host=127.0.0.1", "spring.data.redis.port=${proxy.port()}",
					"spring.data.redis.timeout=2s")
				.run()
		}

		@AfterAll
		@JvmStatic
		fun stop() {
			context.close()
			proxy.close()
			redis.close()
		}

	}

	@OptIn(DelicateCoroutinesApi::class)
	@Test
	fun cancelledWhileTheAcquiresReplyIsLostLeavesNoLock(): Unit = runBlocking {
		val job = context.getBean(CountedJob::class.java)
		// Load the scripts, so that the fault hits an EVALSHA that runs.
		job.run(uniqueKey("warm-up"))
		val before = job.bodies.get()
		val key = uniqueKey("cancelled-during-lost-reply")
		val stall = proxy.stallNextReplyTo(key, 1500)
		val caller = GlobalScope.async { withTimeout(300) { job.run(key) } }.asCompletableFuture()
		val ranInRedis = stall.await(Duration.ofMillis(300)) && presentWithin(key, 100)
		val failure = runCatching { caller.join() }.exceptionOrNull()
		val cancelled = System.nanoTime()
		val freed = freedAt(key, Duration.ofSeconds(5))
		val freedMs = if (freed > 0) (freed - cancelled) / 1_000_000 else -1
		val outcome = (failure?.cause ?: failure)?.javaClass?.simpleName ?: "no exception"
		println("FAULTS coroutine cancellation | acquire's reply lost, caller timed out after 300 ms: acquire ran " +
			"in Redis=$ranInRedis, caller got $outcome; bodies run ${job.bodies.get() - before}; key free " +
			(if (freedMs >= 0) "$freedMs ms" else "not within 5 s") + " after the cancellation (lease 30 s)")
		assertThat(ranInRedis).`as`("the acquire ran in Redis").isTrue()
		assertThat(failure?.cause ?: failure).isInstanceOf(TimeoutCancellationException::class.java)
		assertThat(job.bodies.get() - before).`as`("bodies run").isZero()
		assertThat(freedMs).`as`("ms from the cancellation until the key was free").isBetween(0L, 2000L)
	}

	private fun presentWithin(key: String, millis: Long): Boolean {
		val deadline = System.nanoTime() + millis * 1_000_000
		do {
			if (Resp.number(redis.port(), "EXISTS", key) == 1L) {
				return true
			}
			Pause.millis(2)
		} while (System.nanoTime() - deadline < 0)
		return false
	}

	private fun freedAt(key: String, bound: Duration): Long {
		val deadline = System.nanoTime() + bound.toNanos()
		while (System.nanoTime() - deadline < 0) {
			if (Resp.number(redis.port(), "EXISTS", key) == 0L) {
				return System.nanoTime()
			}
			Pause.millis(10)
		}
		return -1
	}

}
