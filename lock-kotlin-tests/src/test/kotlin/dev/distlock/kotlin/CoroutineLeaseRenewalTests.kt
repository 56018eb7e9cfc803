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
