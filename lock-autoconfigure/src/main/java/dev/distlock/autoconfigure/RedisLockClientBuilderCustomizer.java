package dev.distlock.autoconfigure;

import dev.distlock.redis.RedisLockClientBuilder;

/**
 * Customizes the auto-configured {@link dev.distlock.redis.RedisLockClient} before it is
 * built, after the {@code distlock.*} properties were applied: change one setting, or add
 * a listener, without replacing the client (and losing its health indicator and actuator
 * endpoint). Beans of this type are applied in their order.
 */
@FunctionalInterface
public interface RedisLockClientBuilderCustomizer {

	/**
	 * Customizes the builder.
	 * @param builder the builder, with the configured properties applied
	 */
	void customize(RedisLockClientBuilder builder);

}
