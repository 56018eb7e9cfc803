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
import kotlinx.coroutines.flow.first
import kotlinx.coroutines.flow.onEach
import kotlinx.coroutines.flow.take
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.data.redis.core.StringRedisTemplate
import java.time.Duration

/**
 * A locked method returning a `Flow` takes its lock when the Flow is collected and holds it
 * until the Flow completes or its collector stops.
 */
@KotlinLockTest
class FlowLockTests(@Autowired val feeds: Feeds, @Autowired val holds: Holds,
		@Autowired val redis: StringRedisTemplate) {

	@Test
	fun lockIsTakenWhenCollectedAndHeldUntilTheCollectorStops(): Unit = runBlocking {
		val key = uniqueKey("flow")
		val flow = feeds.endless(key)
		assertThat(holds.tryNow(key)).isEqualTo("ran")
		val redisKeys = flow.take(5).onEach { redisKey ->
			assertThat(redis.hasKey(redisKey)).isTrue()
			assertThat(runCatching { holds.tryNow(key) }.exceptionOrNull())
				.isInstanceOf(LockNotAcquiredException::class.java)
		}.toList()
		assertThat(redisKeys).hasSize(5)
		await().atMost(Duration.ofSeconds(10)).until { redis.hasKey(redisKeys[0]) == false }
		assertThat(holds.tryNow(key)).isEqualTo("ran")
	}

	@Test
	fun lockIsReleasedWhenTheFlowCompletes(): Unit = runBlocking {
		val key = uniqueKey("flow-completes")
		val flow = feeds.lockedKeys(key, 3)
		val redisKeys = flow.toList()
		assertThat(redisKeys).hasSize(3)
		assertThat(redis.hasKey(redisKeys[0])).isFalse()
		assertThat(flow.toList()).hasSize(3)
	}

	@Test
	fun suspendFunctionReturningAFlowIsLockedWhileTheFlowIsCollected(): Unit = runBlocking {
		val key = uniqueKey("suspend-flow")
		val first = feeds.suspendingFeed(key).first()
		val second = feeds.suspendingFeed(key).first()
		assertThat(first).isPositive()
		assertThat(second).isGreaterThan(first)
	}

}
