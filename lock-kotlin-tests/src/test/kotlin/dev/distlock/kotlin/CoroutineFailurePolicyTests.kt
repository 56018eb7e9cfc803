package dev.distlock.kotlin

import dev.distlock.LockNotAcquiredException
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired

/** When the lock is busy: THROW ends the call with the exception, SKIP returns null or an empty Flow, FALLBACK calls the fallback. */
@KotlinLockTest
class CoroutineFailurePolicyTests(@Autowired val holds: Holds, @Autowired val feeds: Feeds) {

	@Test
	fun policiesApplyWhileAnotherCoroutineHoldsTheLock(): Unit = runBlocking {
		val key = uniqueKey("policies")
		assertThat(holds.skipIfBusy(key)).isEqualTo("ran")
		assertThat(holds.orFallback(key)).isEqualTo("ran")
		val entered = CompletableDeferred<String>()
		val release = CompletableDeferred<Unit>()
		val holder = launch(Dispatchers.Default) { holds.holdUntil(key, entered, release) }
		entered.await()

		assertThat(runCatching { holds.tryNow(key) }.exceptionOrNull())
			.isInstanceOf(LockNotAcquiredException::class.java)
		assertThat(holds.skipIfBusy(key)).isNull()
		assertThat(holds.orFallback(key)).isEqualTo("fallback for $key")
		assertThat(feeds.skippedWhenBusy(key).toList()).isEmpty()
		assertThat(runCatching { feeds.failingWhenBusy(key).toList() }.exceptionOrNull())
			.isInstanceOf(LockNotAcquiredException::class.java)

		release.complete(Unit)
		holder.join()
		assertThat(feeds.skippedWhenBusy(key).toList()).containsExactly("ran")
	}

}
