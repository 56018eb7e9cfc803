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

package dev.distlock.redis;

import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.util.ClassUtils;

import dev.distlock.LockOptions;
import dev.distlock.redis.cohort.LocalCohort;
import dev.distlock.redis.lease.LeaseRenewer;
import dev.distlock.redis.protocol.LockKeyspace;
import dev.distlock.redis.protocol.OwnerTokens;
import dev.distlock.redis.protocol.PendingReleases;
import dev.distlock.redis.protocol.RedisLockCommands;
import dev.distlock.redis.protocol.RedisReachability;
import dev.distlock.redis.wait.LockWaiter;
import dev.distlock.redis.wait.ReleaseMessageWaiter;

/**
 * The parts of one {@link RedisLockClient}, wired once from its builder, lowest layer
 * first: the protocol (keyspace, commands, reachability, background releases), the lease
 * renewer, the cohort of its threads, the hold lifecycle (events, registry, grants,
 * releaser, acquirer and its observation, the acquirer of several keys), the release
 * subscription if waiters are handed locks by message, the monitor, and what runs in the
 * background while the client does.
 */
record ClientParts(LockKeyspace keyspace, LockOptions defaultOptions, Map<String, LockOptions> namedOptions,
		RedisReachability reachability, LeaseRenewer<RedisLockHandle> renewer, ObservedAcquirer acquirer,
		MultiKeyAcquirer multiKeys, RedisLockMonitor monitor, String releaseChannel,
		@Nullable ReleaseMessageWaiter releaseWaiter, ClientLifecycle lifecycle, HoldServices holds) {

	/** The Lettuce class whose presence turns on watching Lettuce's connection events. */
	static final String LETTUCE_EVENT_BUS = "io.lettuce.core.event.EventBus";

	private static final boolean LETTUCE_PRESENT = ClassUtils.isPresent(LETTUCE_EVENT_BUS,
			ClientParts.class.getClassLoader());

	static ClientParts of(RedisLockClientBuilder builder) {
		RedisConnectionFactory connectionFactory = Objects.requireNonNull(builder.redis.getConnectionFactory(),
				"The StringRedisTemplate of a RedisLockClient needs a connection factory");
		OwnerTokens tokens = new OwnerTokens();
		LockKeyspace keyspace = new LockKeyspace(builder.keyPrefix, builder.clusterSlots, builder.maxKeyLength);
		// On a cluster, a lock command that Redis did not answer has Lettuce read the
		// topology again: its own triggers miss a master it never connected to.
		RedisReachability reachability = (LETTUCE_PRESENT && keyspace.isCluster())
				? new RedisReachability(true, LettuceTopologyRefresh.of(connectionFactory))
				: new RedisReachability(keyspace.isCluster());
		RedisLockCommands commands = new RedisLockCommands(builder.redis, keyspace, reachability,
				builder.claimWindow.toMillis(), builder.acknowledgement, builder.restartQuarantine);
		PendingReleases pending = new PendingReleases(commands);
		String clientId = tokens.clientId();
		String releaseChannel = keyspace.releaseChannel(clientId);
		LockEvents events = new LockEvents(builder.listeners);
		HeldLocks held = new HeldLocks(events);
		LocalCohort cohort = new LocalCohort(builder.maxLocalPasses, reachability, pending);
		RenewalReports reports = new RenewalReports(events, held, cohort);
		LeaseRenewer<RedisLockHandle> renewer = new LeaseRenewer<>(commands, reports, builder.renewalLease,
				builder.clusterSlots);
		LockReleaser releaser = new LockReleaser(commands, events, held, renewer, cohort, pending);
		WaitingAcquirers waiting = new WaitingAcquirers(events);
		ReleaseMessaging messaging = ReleaseMessaging.of(builder, connectionFactory, keyspace, clientId,
				LETTUCE_PRESENT);
		LockWaiter waiter = (messaging.waiter() != null) ? messaging.waiter() : builder.waiter;
		LockGrants grants = new LockGrants(held, renewer, events, releaser::lastHoldEnded,
				new LeaseExtension<>(commands, renewer, reports));
		LockAcquirer acquirer = new LockAcquirer(new AcquisitionServices(commands, pending, cohort, waiting), waiter,
				grants, events, builder.renewalLease, tokens);
		RedisLockMonitor monitor = new RedisLockMonitor(held, releaser, waiting, new KeyStateReader(commands, held),
				new ClientHealthChecks(commands, new LockingProbe(commands, tokens, messaging.channelOf()),
						messaging.classic(), messaging.sharded()));
		AutoCloseable connectionEvents = LETTUCE_PRESENT
				? LettuceConnectionEvents.watch(connectionFactory, reachability, renewer::renewSoon) : () -> {
				};
		HoldServices holds = new HoldServices(commands, pending, tokens, held, events, renewer, grants, waiting,
				messaging.waiter(), builder.renewalLease);
		ObservedAcquirer observed = new ObservedAcquirer(held, acquirer, events, builder.observationRegistry);
		MultiKeyAcquirer multiKeys = new MultiKeyAcquirer(keyspace, holds, observed,
				new AllAtOnceAttempt(holds, builder.observationRegistry));
		return new ClientParts(
				keyspace, builder.defaultOptions, namedOptions(builder), reachability, renewer, observed, multiKeys,
				monitor, releaseChannel, messaging.waiter(), new ClientLifecycle(messaging.subscription(), renewer,
						pending, connectionEvents, new EvictionPolicyWarning(commands.monitoring()::evictionPolicies)),
				holds);
	}

	/**
	 * Returns the options the builder was given for the name, else the default options
	 * with that name.
	 */
	LockOptions optionsFor(String name) {
		LockOptions options = namedOptions().get(name);
		return (options != null) ? options : defaultOptions().withName(name);
	}

	private static Map<String, LockOptions> namedOptions(RedisLockClientBuilder builder) {
		Map<String, LockOptions> options = new HashMap<>();
		builder.namedOptions
			.forEach((name, derive) -> options.put(name, derive.apply(builder.defaultOptions).withName(name)));
		return Map.copyOf(options);
	}

	/**
	 * Lets a native image find Lettuce's event bus by name, as the check for Lettuce
	 * does; otherwise Lettuce would look absent there. Registered in
	 * {@code META-INF/spring/aot.factories}.
	 */
	static final class ClientPartsRuntimeHints implements RuntimeHintsRegistrar {

		@Override
		public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
			hints.reflection().registerTypeIfPresent(classLoader, LETTUCE_EVENT_BUS);
		}

	}

}
