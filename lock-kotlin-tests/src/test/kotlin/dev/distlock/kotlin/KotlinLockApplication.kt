package dev.distlock.kotlin

import dev.distlock.reactive.ReactiveLockClient
import dev.distlock.redis.ReactiveRedisLockClient
import dev.distlock.redis.RedisLockClient
import org.springframework.boot.autoconfigure.SpringBootApplication
import org.springframework.context.annotation.Bean
import org.springframework.data.redis.core.ReactiveStringRedisTemplate

/**
 * A Spring Boot application whose beans lock `suspend` functions and `Flow`s with
 * `@DistributedLock`, on distlock's auto-configuration.
 */
@SpringBootApplication
class KotlinLockApplication {

	/** The reactive client of the auto-configured Redis lock client, which coroutines are locked with. */
	@Bean
	fun reactiveLockClient(client: RedisLockClient, redis: ReactiveStringRedisTemplate): ReactiveLockClient =
		ReactiveRedisLockClient(client, redis)

}
