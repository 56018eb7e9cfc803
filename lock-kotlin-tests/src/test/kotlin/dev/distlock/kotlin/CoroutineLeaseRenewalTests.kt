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

import dev.distlock.test.spring.WithRedisTestServer
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import org.springframework.boot.test.context.SpringBootTest
import org.springframework.data.redis.core.StringRedisTemplate
import java.time.Duration
import java.util.concurrent.TimeUnit

/** The auto-renewed lease of a suspended locked function is renewed while it is suspended (leases of 1.5 s here). */
@SpringBootTest(classes = [KotlinLockApplication::class], properties = ["distlock.renewal.lease=1500ms"])
@WithRedisTestServer
class CoroutineLeaseRenewalTests(@Autowired val holds: Holds, @Autowired val redis: StringRedisTemplate) {

	@Test
	fun leaseIsRenewedWhileTheFunctionIsSuspended(): Unit = runBlocking {
		val key = uniqueKey("renewed")
		val entered = CompletableDeferred<String>()
		val release = CompletableDeferred<Unit>()
		val holder = launch(Dispatchers.Default) { holds.holdUntil(key, entered, release) }
		val redisKey = entered.await()
		var lowest = Long.MAX_VALUE
		// Without renewal the TTL only falls; a rise of more than 100 ms is a renewal.
		await().atMost(Duration.ofSeconds(10)).until {
			val ttl = redis.getExpire(redisKey, TimeUnit.MILLISECONDS)
			lowest = minOf(lowest, ttl)
			ttl > 0 && ttl > lowest + 100
		}
		release.complete(Unit)
		holder.join()
		assertThat(redis.hasKey(redisKey)).isFalse()
	}

}
