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
