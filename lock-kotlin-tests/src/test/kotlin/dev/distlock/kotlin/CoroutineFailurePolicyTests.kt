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
