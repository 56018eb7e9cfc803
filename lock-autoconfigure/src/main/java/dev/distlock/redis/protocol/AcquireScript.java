package dev.distlock.redis.protocol;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the acquire script: through the template alone, routed as every other command,
 * when no replica must acknowledge a grant; else with {@code WAIT} after a grant on the
 * same connection ({@link AcknowledgedAcquire}).
 */
final class AcquireScript {

	private final StringRedisTemplate redis;

	private final ReplicaAcknowledgement acknowledgement;

	/** Runs the script and WAIT, if replicas must acknowledge grants. */
	private final @Nullable AcknowledgedAcquire acknowledged;

	AcquireScript(StringRedisTemplate redis, ReplicaAcknowledgement acknowledgement, boolean cluster) {
		this.redis = redis;
		this.acknowledgement = acknowledgement;
		this.acknowledged = acknowledgement.isRequired() ? new AcknowledgedAcquire(redis, acknowledgement, cluster)
				: null;
	}

	/** Returns how many replicas must acknowledge each grant. */
	ReplicaAcknowledgement acknowledgement() {
		return this.acknowledgement;
	}

	/**
	 * Runs the script with the keys and arguments.
	 * @return its reply, with the acknowledgements appended to a grant if any are
	 * required
	 */
	@Nullable List<Long> run(List<String> keys, String... args) {
		return (this.acknowledged != null) ? this.acknowledged.acquire(keys, args)
				: this.redis.execute(LockScripts.acquire(args[0]), keys, (Object[]) args);
	}

}
