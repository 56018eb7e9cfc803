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

package dev.distlock.redis.protocol;

import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Runs the acquire script: through the template alone, routed as every other command,
 * when no replica must acknowledge a grant; else with {@code WAIT} after a grant on the
 * same connection ({@link AcknowledgedScript}).
 */
final class AcquireScript {

	private final StringRedisTemplate redis;

	private final ReplicaAcknowledgement acknowledgement;

	/** Runs the script and WAIT, if replicas must acknowledge grants. */
	private final @Nullable AcknowledgedScript acknowledged;

	AcquireScript(StringRedisTemplate redis, ReplicaAcknowledgement acknowledgement,
			@Nullable AcknowledgedScript acknowledged) {
		this.redis = redis;
		this.acknowledgement = acknowledgement;
		this.acknowledged = acknowledged;
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
		if (this.acknowledged == null) {
			return this.redis.execute(LockScripts.acquire(args[0]), keys, (Object[]) args);
		}
		AcknowledgedReply<List<Long>> run = this.acknowledged.run(LockScripts.acquire(args[0]), keys,
				AcquireScript::granted, args);
		List<Long> reply = run.reply();
		if (reply == null || run.replicas() == AcknowledgedReply.NOT_ASKED) {
			return (reply != null) ? reply : List.of();
		}
		List<Long> acknowledgedReply = new ArrayList<>(reply);
		acknowledgedReply.add(run.replicas());
		return acknowledgedReply;
	}

	private static boolean granted(List<Long> reply) {
		return !reply.isEmpty() && reply.get(0) == 1;
	}

}
