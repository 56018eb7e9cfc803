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
 * Allows one wait inside Netty that Netty's own BlockHound integration does not yet list:
 * when its adaptive buffer allocator (Netty 4.2's default) adds a magazine, it frees the
 * replaced one under that magazine's {@code StampedLock}, held only while buffers are
 * moved in memory. An event loop allocating its first buffer (Lettuce's
 * {@code CommandHandler} when a connection registers) can park there for that moment,
 * which BlockHound reports as {@code Unsafe#park}; the error then breaks the connection's
 * handshake, which times out after a minute.
 */
public final class NettyAllocatorAllowance implements BlockHoundIntegration {

	@Override
	public void applyTo(BlockHound.Builder builder) {
		builder.allowBlockingCallsInside("io.netty.buffer.AdaptivePoolingAllocator$MagazineGroup",
				"tryExpandMagazines");
	}

}
