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

import dev.distlock.reactive.ReactiveLockClient
import dev.distlock.redlock.ReactiveRedLockClient
import dev.distlock.test.redis.RedisServerProcess
import dev.distlock.test.spring.WithRedisTestServer
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.AfterAll
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.test.context.DynamicPropertyRegistry
import org.springframework.test.context.DynamicPropertySource
import java.util.UUID

/**
 * `suspend` functions locked with `distlock.store=redlock`, on 3 `redis-server` processes the
 * test starts: the auto-configured [ReactiveRedLockClient] locks them (the counter's value lives
 * in the application's own Redis), no increment is lost, and each hold's fencing token, read
 * from the coroutine's Reactor context across suspensions and dispatchers, is greater than the
 * last.
 */
@SpringBootTest(
	classes = [KotlinLockApplication::class],
	properties = ["distlock.store=redlock", "distlock.redlock.node-timeout=200ms"],
)
@WithRedisTestServer
class RedLockSuspendFunctionTests(
	@Autowired val counter: Counter,
	@Autowired val holds: Holds,
	@Autowired val reactiveLockClient: ReactiveLockClient,
) {

	companion object {

		private val nodes = List(3) { RedisServerProcess.startOnFreePort() }

		@JvmStatic
		@DynamicPropertySource
		fun redLockNodes(registry: DynamicPropertyRegistry) {
			registry.add("distlock.redlock.nodes") { nodes.joinToString(",") { "redis://${it.host()}:${it.port()}" } }
			// Fresh nodes count at once, as with every write persisted: restarts are not
			// this test's subject.
			registry.add("distlock.redlock.appendfsync-always") { "true" }
		}

		@JvmStatic
		@AfterAll
		fun stopNodes() = nodes.forEach(RedisServerProcess::close)

	}

	@Test
	fun everyIncrementOfEveryCoroutineCountsUnderTheRedLockClient(): Unit = runBlocking {
		assertThat(reactiveLockClient).isInstanceOf(ReactiveRedLockClient::class.java)
		val name = UUID.randomUUID().toString()
		// Few coroutines: RedLock waiters retry every few milliseconds, so many of them at
		// once load a 2-core machine with attempts rather than test the Kotlin path.
		val coroutines = 8
		val increments = 5
		coroutineScope {
			repeat(coroutines) {
				launch(Dispatchers.Default) {
					repeat(increments) { counter.increment(name) }
				}
			}
		}
		assertThat(counter.value(name)).isEqualTo((coroutines * increments).toLong())
		counter.holds.assertSerial(coroutines * increments)
	}

	@Test
	fun fencingTokenIsReadableAcrossSuspensionsAndGrowsWithEveryHold(): Unit = runBlocking {
		val key = uniqueKey("redlock-fence")
		val first = holds.fencingTokens(key)
		val second = holds.fencingTokens(key)
		assertThat(first).hasSize(3).containsOnly(first[0])
		assertThat(second).hasSize(3).containsOnly(second[0])
		assertThat(second[0]).isGreaterThan(first[0])
	}

}
