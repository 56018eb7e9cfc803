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

package dev.distlock.aop;

import java.lang.reflect.Method;

import dev.distlock.DistributedLock;
import dev.distlock.InvalidLockDefinitionException;
import dev.distlock.LockKind;
import dev.distlock.LockMode;

/**
 * Reads the kind of a {@link DistributedLock @DistributedLock} method's lock from its
 * {@link DistributedLock#mode() mode} and {@link DistributedLock#permits() permits},
 * checked against each other and against {@link DistributedLock#keys() keys}, which lock
 * exclusively, and describes a kind in the annotation's words.
 */
final class LockKindAttributes {

	private LockKindAttributes() {
	}

	/**
	 * Reads and checks the kind of a method's lock.
	 * @param method the annotated method, named by the failure
	 * @param annotation its merged annotation
	 * @return the kind
	 * @throws InvalidLockDefinitionException if the permits are less than one, given with
	 * a read or write mode, or a shared kind is asked for several keys
	 */
	static LockKind read(Method method, DistributedLock annotation) {
		LockMode mode = annotation.mode();
		int permits = annotation.permits();
		if (permits < 1) {
			throw new InvalidLockDefinitionException(method, "permits = " + permits + " is less than 1",
					"Set permits to 1 for a lock, or to the number of holders allowed at once for a semaphore, "
							+ "such as permits = 5.",
					null);
		}
		if (permits > 1 && mode != LockMode.EXCLUSIVE) {
			throw new InvalidLockDefinitionException(method,
					"permits = " + permits + " is given with mode = " + mode
							+ ", and a semaphore has no read or write side",
					"Use either permits (a semaphore: at most that many holders at once) or mode = READ or WRITE "
							+ "(a read-write lock), not both.",
					null);
		}
		LockKind kind = new LockKind(mode, permits);
		if (annotation.keys().length > 0 && kind.isShared()) {
			throw new InvalidLockDefinitionException(method,
					"keys locks several keys, which only exclusive locks can do, and " + attributes(kind) + " is given",
					"Lock one key (key = ...) with " + attributes(kind)
							+ ", or remove mode and permits to lock all the keys exclusively.",
					null);
		}
		return kind;
	}

	/**
	 * Describes a kind as the annotation's attributes say it.
	 * @param kind the kind
	 * @return {@code permits = N} for a semaphore, else {@code mode = MODE}
	 */
	static String attributes(LockKind kind) {
		if (kind.isSemaphore()) {
			return "permits = " + kind.permits();
		}
		return "mode = " + kind.mode();
	}

}
