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

package dev.distlock.redlock.contract;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;

import dev.distlock.LockClient;
import dev.distlock.LockOptions;
import dev.distlock.redlock.RedLockClient;
import dev.distlock.test.contract.AbstractLockClientContractTests;
import dev.distlock.test.redis.RedisServerProcess;

/**
 * The lock contract for the RedLock client on 3 independent {@code redis-server}
 * processes, as {@code distlock.store=redlock} configures it: the same suite as for the
 * Redis client, unchanged.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RedLockContractTests extends AbstractLockClientContractTests {

	private final List<RedisServerProcess> servers = new ArrayList<>();

	private RedLockClient client;

	@BeforeAll
	void start() {
		List<String> urls = new ArrayList<>();
		for (int i = 0; i < nodeCount(); i++) {
			RedisServerProcess server = RedisServerProcess.startOnFreePort();
			this.servers.add(server);
			urls.add("redis://" + server.host() + ":" + server.port());
		}
		this.client = RedLockClient.builder(urls)
			.defaultOptions(LockOptions.renewing(Duration.ofSeconds(10)))
			.renewalLease(Duration.ofSeconds(3))
			.nodeTimeout(Duration.ofMillis(50))
			.build();
		this.client.checkNodes(Duration.ofSeconds(5));
		// Fresh nodes count once they have been up for the longest lease (3s).
		RedLockNodes.awaitCounted(this.client);
	}

	/**
	 * Returns how many nodes the client locks on.
	 * @return the number of redis-server processes to start
	 */
	int nodeCount() {
		return 3;
	}

	@AfterAll
	void stop() {
		if (this.client != null) {
			this.client.close();
		}
		this.servers.forEach(RedisServerProcess::close);
	}

	@Override
	protected LockClient client() {
		return this.client;
	}

}
