package dev.distlock.kotlin

import dev.distlock.test.spring.WithRedisTestServer
import org.springframework.boot.test.context.SpringBootTest
import java.util.UUID

/** A test of [KotlinLockApplication] against the shared Redis test server. */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@SpringBootTest(classes = [KotlinLockApplication::class])
@WithRedisTestServer
annotation class KotlinLockTest

/** A lock key no other test uses. */
fun uniqueKey(name: String): String = "kt:$name:${UUID.randomUUID()}"
