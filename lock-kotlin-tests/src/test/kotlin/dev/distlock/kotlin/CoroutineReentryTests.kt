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
