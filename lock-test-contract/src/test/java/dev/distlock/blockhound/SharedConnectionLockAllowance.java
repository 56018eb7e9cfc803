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
 * Allows one wait that BlockHound reports although nothing blocks on I/O: Spring Data
 * Redis's {@code LettuceConnectionFactory} hands every reactive command its shared
 * connection under a {@code ReentrantLock} ({@code doInLock}), held while a field is read
 * and the connection checked open. Two threads asking at once (a Lettuce event loop
 * releasing a lock, Reactor's timer starting the next attempt) make one of them park for
 * that moment, which BlockHound reports as {@code Unsafe#park}. Opening the connection
 * inside the lock ({@code SharedConnection#getNativeConnection}) is blocking I/O, and
 * stays disallowed.
 */
public final class SharedConnectionLockAllowance implements BlockHoundIntegration {

	private static final String FACTORY = "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside(FACTORY, "doInLock")
			.disallowBlockingCallsInside(FACTORY + "$SharedConnection", "getNativeConnection");
	}

}
