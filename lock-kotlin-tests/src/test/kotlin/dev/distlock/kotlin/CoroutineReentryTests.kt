package dev.distlock.kotlin

import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired

/**
 * A locked call of the same key nested in a locked `suspend fun` re-enters its hold (the
 * inner calls wait zero and would fail otherwise): same grant, same fencing token, and the
 * inner call's end does not release the outer hold.
 */
@KotlinLockTest
class CoroutineReentryTests(@Autowired val outer: Outer, @Autowired val holds: Holds) {

	@Test
	fun nestedSuspendCallReentersTheHold(): Unit = runBlocking {
		val key = uniqueKey("reentry")
		val (outerToken, innerToken, stillHeld) = outer.outer(key)
		assertThat(innerToken).isEqualTo(outerToken)
		assertThat(stillHeld).isTrue()
		assertThat(holds.tryNow(key)).isEqualTo("ran")
	}

	@Test
	fun nestedFlowReentersTheHold(): Unit = runBlocking {
		val key = uniqueKey("reentry-flow")
		val tokens = outer.outerCollecting(key)
		assertThat(tokens).hasSize(2).allMatch { it == tokens[0] }
	}

}
