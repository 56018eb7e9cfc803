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

import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.coroutineScope
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.springframework.beans.factory.annotation.Autowired
import java.util.UUID

/** 200 coroutines increment one Redis value by read-modify-write under the lock: no update is lost. */
@KotlinLockTest
class ConcurrentSuspendIncrementTests(@Autowired val counter: Counter) {

	@Test
	fun everyIncrementOfEveryCoroutineCounts(): Unit = runBlocking {
		val name = UUID.randomUUID().toString()
		val coroutines = 200
		val increments = 3
		coroutineScope {
			repeat(coroutines) {
				launch(Dispatchers.Default) {
					repeat(increments) { counter.increment(name) }
				}
			}
		}
		assertThat(counter.value(name)).isEqualTo((coroutines * increments).toLong())
		counter.holds.assertSerial(coroutines * increments)
	}

}
