package dev.distlock.kotlin

import org.springframework.boot.autoconfigure.SpringBootApplication

/**
 * A Spring Boot application whose beans lock `suspend` functions and `Flow`s with
 * `@DistributedLock`, on distlock's auto-configuration alone (its `ReactiveLockClient`
 * bean locks the coroutines).
 */
@SpringBootApplication
class KotlinLockApplication
