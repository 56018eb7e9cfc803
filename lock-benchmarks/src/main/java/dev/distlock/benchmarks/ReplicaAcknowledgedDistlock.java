package dev.distlock.benchmarks;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import dev.distlock.autoconfigure.RedisLockClientBuilderCustomizer;
import dev.distlock.redis.RedisLockClientBuilder;

/**
 * The extra distlock contender of the cluster run, {@value #ID}: the programmatic client
 * of an application that also asks for each lock write to reach one replica before it
 * counts ({@code RedisLockClientBuilder.replicaAcknowledgement(1, 1 s)}, set by a
 * {@link RedisLockClientBuilderCustomizer} bean). Its context is otherwise the one
 * {@link DistlockFactory} builds.
 * <p>
 * The builder method is looked up when the run starts, as {@link DistlockFactory} looks
 * up what a build supports: a build without it (before it is merged, or an older
 * {@code BENCH_DISTLOCK_REF}) leaves this contender out, and the run says so.
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
	 * Tells whether the build on the class path can acknowledge writes by replicas.
	 * @return whether the contender can be created
	 */
	static boolean available() {
		return REPLICA_ACKNOWLEDGEMENT != null;
	}

	/**
	 * Says why the contender is missing, for the report.
	 * @return the reason
	 */
	static String absence() {
		return ID + " (" + NAME + ") left out: this build's RedisLockClientBuilder has no "
				+ "replicaAcknowledgement(int, Duration)";
	}

	/**
	 * Starts the contender's application context, whose {@code LockClient} is the
	 * contender ({@link DistlockFactory#client(ConfigurableApplicationContext, String)}).
	 * @param target the Redis to lock on
	 * @return the context
	 */
	static ConfigurableApplicationContext context(RedisTarget target) {
		return DistlockFactory.builder(target).sources(ReplicaAcknowledgement.class).run();
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
			return (builder) -> {
				Method method = REPLICA_ACKNOWLEDGEMENT;
				if (method == null) {
					throw new IllegalStateException(absence());
				}
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
