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

package dev.distlock.blockhound;

import reactor.blockhound.BlockHound;
import reactor.blockhound.integration.BlockHoundIntegration;

/**
 * Allows the waits inside Lettuce's {@code SharedLock}, which every command write of a
 * connection passes: a {@code ReentrantLock} held while a writer count is changed. An
 * event loop can park there for that moment when another thread writes at once, which
 * BlockHound reports as {@code Unsafe#park}. The error BlockHound throws must not escape
 * from there: {@code SharedLock} does not survive an error inside its guarded region
 * (lettuce issue 3804), it stays exclusively locked and every later write on the
 * connection spins forever.
 */
public final class LettuceSharedLockAllowance implements BlockHoundIntegration {

	private static final String SHARED_LOCK = "io.lettuce.core.protocol.SharedLock";

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside(SHARED_LOCK, "incrementWriters")
			.allowBlockingCallsInside(SHARED_LOCK, "decrementWriters")
			.allowBlockingCallsInside(SHARED_LOCK, "lockWritersExclusive")
			.allowBlockingCallsInside(SHARED_LOCK, "unlockWritersExclusive");
	}

}
