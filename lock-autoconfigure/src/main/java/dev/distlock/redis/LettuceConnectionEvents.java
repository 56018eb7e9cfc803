package dev.distlock.redis;

import io.lettuce.core.AbstractRedisClient;
import io.lettuce.core.event.connection.ConnectionActivatedEvent;
import io.lettuce.core.event.connection.DisconnectedEvent;
import io.lettuce.core.resource.ClientResources;
import org.jspecify.annotations.Nullable;
import reactor.core.Disposable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

import dev.distlock.redis.protocol.RedisReachability;

/**
 * Tells a client's {@link RedisReachability} when Lettuce loses a connection to Redis,
 * and has the client's holds confirmed as soon as a connection is back. Redis may have
 * restarted empty in between without any lock command failing, so no hold passes between
 * threads without Redis until Redis has confirmed it again. Only templates on a
 * {@link LettuceConnectionFactory} have these events; with other clients, failed commands
 * alone tell.
 */
final class LettuceConnectionEvents implements AutoCloseable {

	private final Disposable subscription;

	private LettuceConnectionEvents(Disposable subscription) {
		this.subscription = subscription;
	}

	/**
	 * Starts watching the connection events of a factory, if it is Lettuce's.
	 * @param confirmHolds run when a connection is lost or (re-)established: has Redis
	 * confirm the holds
	 * @return the watch, to close with the client; a no-op for other factories
	 */
	static AutoCloseable watch(@Nullable RedisConnectionFactory factory, RedisReachability reachability,
			Runnable confirmHolds) {
		ClientResources resources = (factory instanceof LettuceConnectionFactory lettuce) ? resources(lettuce) : null;
		if (resources == null) {
			return () -> {
			};
		}
		return new LettuceConnectionEvents(resources.eventBus().get().subscribe((event) -> {
			if (event instanceof DisconnectedEvent) {
				reachability.connectionLost();
				confirmHolds.run();
			}
			else if (event instanceof ConnectionActivatedEvent) {
				confirmHolds.run();
			}
		}));
	}

	private static @Nullable ClientResources resources(LettuceConnectionFactory factory) {
		ClientResources resources = factory.getClientResources();
		if (resources != null) {
			return resources;
		}
		AbstractRedisClient client = factory.getNativeClient();
		return (client != null) ? client.getResources() : null;
	}

	@Override
	public void close() {
		this.subscription.dispose();
	}

}
