package dev.distlock.benchmarks;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;

import dev.distlock.autoconfigure.RedisLockClientBuilderCustomizer;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The extra distlock contender of the cluster run, {@value #ID}: the programmatic client
 * of an application that also asks for each grant to reach one replica before it counts
 * ({@code RedisLockClientBuilder.replicaAcknowledgement(1, 1 s)}, set by a
 * {@link RedisLockClientBuilderCustomizer} bean). Its context is otherwise the one
 * {@link DistlockFactory} builds.
 * <p>
 * The builder method is looked up when the run starts, as {@link DistlockFactory} looks
 * up what a build supports, and the client may refuse the target when it starts (a build
 * that does not support replica acknowledgement on a Redis Cluster fails its build with
 * an {@link IllegalStateException}). Either way the contender is left out and the run
 * says why.
 */
final class ReplicaAcknowledgedDistlock {

	static final String ID = "distlock-wait1";

	static final String NAME = "distlock client, WAIT 1 replica";

	private static final int REPLICAS = 1;

	private static final Duration TIMEOUT = Duration.ofSeconds(1);

	private static final @Nullable Method REPLICA_ACKNOWLEDGEMENT = builderMethod();

	private ReplicaAcknowledgedDistlock() {
	}

	/**
	 * Creates the contender: the {@code LockClient} of an application context of its own.
	 * @param target the Redis to lock on
	 * @param started told about the context, which the caller closes
	 * @param leftOut told why, if the contender cannot run on the target with this build
	 * @return the contender, or {@code null} if it cannot run
	 */
	static @Nullable ExplicitContender create(RedisTarget target, Consumer<ConfigurableApplicationContext> started,
			Consumer<String> leftOut) {
		ConfigurableApplicationContext context = start(target, leftOut);
		if (context == null) {
			return null;
		}
		started.accept(context);
		return DistlockFactory.client(context, NAME);
	}

	private static @Nullable ConfigurableApplicationContext start(RedisTarget target, Consumer<String> leftOut) {
		if (REPLICA_ACKNOWLEDGEMENT == null) {
			leftOut.accept(ID + " (" + NAME + ") left out: this build's RedisLockClientBuilder has no "
					+ "replicaAcknowledgement(int, Duration)");
			return null;
		}
		try {
			return DistlockFactory.builder(target).sources(ReplicaAcknowledgement.class).run();
		}
		catch (RuntimeException ex) {
			Throwable cause = NestedExceptionUtils.getMostSpecificCause(ex);
			if (!(cause instanceof IllegalStateException)) {
				throw ex;
			}
			leftOut.accept(ID + " (" + NAME + ") left out: the client refused to start: " + cause.getMessage());
			return null;
		}
	}

	private static @Nullable Method builderMethod() {
		try {
			return RedisLockClientBuilder.class.getMethod("replicaAcknowledgement", int.class, Duration.class);
		}
		catch (NoSuchMethodException ex) {
			return null;
		}
	}

	/**
	 * Asks the auto-configured client to wait for one replica.
	 */
	@Configuration(proxyBeanMethods = false)
	static class ReplicaAcknowledgement {

		@Bean
		RedisLockClientBuilderCustomizer replicaAcknowledgementCustomizer() {
			Method method = REPLICA_ACKNOWLEDGEMENT;
			if (method == null) {
				throw new IllegalStateException("RedisLockClientBuilder has no replicaAcknowledgement(int, Duration)");
			}
			return (builder) -> {
				try {
					method.invoke(builder, REPLICAS, TIMEOUT);
				}
				catch (IllegalAccessException | InvocationTargetException ex) {
					throw new IllegalStateException(
							"Could not set replicaAcknowledgement(" + REPLICAS + ", " + TIMEOUT + ")", ex);
				}
			};
		}

	}

}
