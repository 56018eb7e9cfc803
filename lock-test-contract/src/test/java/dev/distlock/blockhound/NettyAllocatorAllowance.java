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
