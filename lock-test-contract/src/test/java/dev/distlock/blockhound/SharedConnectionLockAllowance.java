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
