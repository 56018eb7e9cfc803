package dev.distlock.kotlin

import dev.distlock.test.spring.WithRedisTestServer
import org.springframework.boot.test.context.SpringBootTest
import java.util.UUID

/**
 * A test of [KotlinLockApplication] against the shared Redis test server; auto-renewed
 * leases last 1.5 s, so that renewal shows within a test.
 */
@Target(AnnotationTarget.CLASS)
@Retention(AnnotationRetention.RUNTIME)
@SpringBootTest(classes = [KotlinLockApplication::class], properties = ["distlock.renewal.lease=1500ms"])
@WithRedisTestServer
annotation class KotlinLockTest

/** A lock key no other test uses. */
fun uniqueKey(name: String): String = "kt:$name:${UUID.randomUUID()}"
