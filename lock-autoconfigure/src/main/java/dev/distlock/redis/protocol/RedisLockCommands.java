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
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

import dev.distlock.LockUnavailableException;
import dev.distlock.ReplicaAcknowledgementException;

/**
 * The Redis commands of the lock, one round trip each: acquire (or queue), release (or
 * hand over), batch renewal ({@link #monitoring()} has the rest). Failures are thrown as
 * Spring's {@code DataAccessException}s, and recorded in a {@link RedisReachability}.
 */
public final class RedisLockCommands {

	private final StringRedisTemplate redis;

	/** Runs the scripts and the plain acquire on the template's own connection. */
	private final LockScriptExecutor scripts;

	private final String address;

	private final LockKeyspace keyspace;

	private final RedisReachability reachability;

	/** How long a release keeps a lock it hands over until the new holder confirms it. */
	private final long claimWindowMillis;

	private final LockMonitoringCommands monitoring;

	/** How many replicas must acknowledge each grant. */
	private final ReplicaAcknowledgement acknowledgement;

	/**
	 * Runs the scripts whose writes replicas must acknowledge, with {@code WAIT}; null if
	 * none must.
	 */
	private final @Nullable AcknowledgedScript acknowledged;

	private final RestartQuarantine quarantine;

	private final QuarantineNotice quarantineNotice = new QuarantineNotice();

	/**
	 * How many lock names the commands remember as fenced or contended, each; past it
	 * they start again from none (names are few: one per annotated method or configured
	 * lock).
	 */
	static final int MAX_REMEMBERED_NAMES = 10_000;

	/**
	 * Whether the acquire script answered once: until then, every acquire runs it, so
	 * that what it checks of the server (its scripts run, the fencing counter is a
	 * number, the user may run what a lock needs) fails the first acquisition, not a
	 * later release or the first request for a token.
	 */
	private volatile boolean acquireScriptAnswered;

	/**
	 * The names of the locks whose holds asked for their fencing tokens: the acquire
	 * script serves their first attempts better, granting the token with the lock.
	 */
	private final Set<String> fencedNames = ConcurrentHashMap.newKeySet();

	/**
	 * The names of the locks whose last first attempt found the key taken: the plain
	 * {@code SET NX PX} would likely fail again, and cost a round trip before the script.
	 */
	private final Set<String> contendedNames = ConcurrentHashMap.newKeySet();

	/**
	 * The delete of a lock's key if it holds the token alone, which a release uses if
	 * nobody waits: the server's own command, or a script of two calls.
	 */
	private final ConditionalDelete conditionalDelete;

	/** The key, which never exists, on which the conditional delete is probed. */
	private final String probeKey;

	/**
	 * Creates the commands of one client, without a restart quarantine.
	 * @param redis the connection to Redis
	 * @param keyspace the names of the keys and channels
	 * @param reachability where every command is recorded
	 * @param claimWindowMillis how long a release keeps a lock it hands over until the
	 * new holder confirms it
	 * @param acknowledgement how many replicas must acknowledge each grant
	 */
	public RedisLockCommands(StringRedisTemplate redis, LockKeyspace keyspace, RedisReachability reachability,
			long claimWindowMillis, ReplicaAcknowledgement acknowledgement) {
		this(redis, keyspace, reachability, claimWindowMillis, acknowledgement, RestartQuarantine.OFF);
	}

	/**
	 * Creates the commands of one client.
	 * @param redis the connection to Redis
	 * @param keyspace the names of the keys and channels
	 * @param reachability where every command is recorded
	 * @param claimWindowMillis how long a release keeps a lock it hands over until the
	 * new holder confirms it
	 * @param acknowledgement how many replicas must acknowledge each grant
	 * @param quarantine how long a server that lost distlock's state grants no lock
	 */
	public RedisLockCommands(StringRedisTemplate redis, LockKeyspace keyspace, RedisReachability reachability,
			long claimWindowMillis, ReplicaAcknowledgement acknowledgement, RestartQuarantine quarantine) {
		this.quarantine = quarantine;
		this.redis = redis;
		this.scripts = new LockScriptExecutor(redis);
		this.address = RedisAddress.of(redis.getConnectionFactory());
		this.keyspace = keyspace;
		this.reachability = reachability;
		this.claimWindowMillis = claimWindowMillis;
		this.monitoring = new LockMonitoringCommands(redis, keyspace, reachability);
		this.acknowledgement = acknowledgement;
		this.acknowledged = acknowledgement.isRequired()
				? new AcknowledgedScript(redis, acknowledgement, keyspace.isCluster()) : null;
		this.conditionalDelete = new ConditionalDelete(redis, this.scripts);
		this.probeKey = keyspace.healthKey("conditional-delete-probe");
	}

	/**
	 * Asks the server in the background which native conditional delete it has, if any
	 * ({@code DELEX ... IFEQ}, {@code DELIFEQ}): releases use it once it answers (see
	 * {@link #release(String, String, String, long)}). Called when the client starts.
	 */
	public void probeServer() {
		this.conditionalDelete.probeInBackground(this.probeKey);
	}

	/**
	 * Returns whether grants can be acknowledged on a Redis Cluster reached through the
	 * connection factory: only with Lettuce, whose node connections can be addressed (a
	 * Jedis cluster connection routes each command on its own).
	 * @param connectionFactory the factory of the lock's connections
	 * @return whether the factory is Lettuce's
	 */
	public static boolean acknowledgesOnCluster(RedisConnectionFactory connectionFactory) {
		return LettuceClusterScript.supports(connectionFactory);
	}

	/** Returns how many replicas must acknowledge each grant. */
	public ReplicaAcknowledgement acknowledgement() {
		return this.acknowledgement;
	}

	/** Returns how long a server that lost distlock's state grants no lock. */
	public RestartQuarantine quarantine() {
		return this.quarantine;
	}

	/** Returns where every command is recorded. */
	public RedisReachability reachability() {
		return this.reachability;
	}

	/** Returns the names of the keys and channels. */
	public LockKeyspace keyspace() {
		return this.keyspace;
	}

	/**
	 * Asks the node of a lock whether it answers, with a read of the lock's key
	 * ({@code EXISTS}): the evidence a wait needs before it reports a lock as held
	 * elsewhere when its node has answered nothing lately.
	 * @param key the Redis key of the lock
	 * @throws org.springframework.dao.DataAccessException if the node does not answer
	 */
	public void confirmAnswering(String key) {
		recorded(key, () -> this.redis.hasKey(key));
	}

	/**
	 * Returns how long a release that hands a waiter with this lease the lock keeps it
	 * until the waiter confirms: the claim window, or the lease if shorter. The waiter's
	 * attempts store it in its place in the queue, so that the release uses the same
	 * figure.
	 */
	public long claimMillis(long leaseMillis) {
		return Math.min(leaseMillis, this.claimWindowMillis);
	}

	/**
	 * Tries to acquire a lock; a caller that gives a channel takes (or renews) a place in
	 * the lock's queue if the lock is held, so that a release hands it the lock.
	 * @param handOverChannel where to be told of a hand-over, or null to stay out of the
	 * queue; a release {@code SPUBLISH}es on a sharded channel of the keyspace, else
	 * {@code PUBLISH}es
	 * @param queueEntryTtlMillis how long the place stays valid unless renewed by another
	 * attempt
	 * @param block how many fencing tokens to reserve, 1 or more
	 * @param mayBeQueued whether an earlier attempt of the same token may have queued it
	 * @return the grant (with how many replicas acknowledged it, if any must), or the
	 * holder's remaining lease (or the rest of a restart quarantine) and the fencing
	 * counter
	 */
	public AcquireReply acquire(String key, String token, long leaseMillis, @Nullable String handOverChannel,
			long queueEntryTtlMillis, int block, boolean mayBeQueued) {
		List<String> args = acquireArguments(token, leaseMillis, handOverChannel, queueEntryTtlMillis, block,
				mayBeQueued);
		AcquireReply reply = noticed(key,
				AcquireReply.of(recorded(key, () -> runAcquire(scriptKeys(key), args.toArray(String[]::new)))));
		this.acquireScriptAnswered = true;
		return reply;
	}

	/**
	 * Makes an attempt of an acquisition with the command that serves it: the first
	 * attempt at an exclusive lock that needs one fencing token, of a name whose holds
	 * neither asked for their tokens nor last found the lock taken, is a plain
	 * {@code SET NX PX} ({@link #acquirePlainly}) where the client allows it
	 * ({@link #acquiresPlainly()}); any other attempt, or one whose key exists, runs the
	 * acquire script ({@link #acquire}), which queues the caller or tells the holder's
	 * lease. What a first attempt finds is remembered per lock name (at most
	 * {@value #MAX_REMEMBERED_NAMES} names each).
	 * @param name the logical name of the lock
	 * @param handOverChannel asked for the channel to pass to the acquire script only if
	 * the script runs, so that a waiter that gets the lock plainly never registers for
	 * hand-over messages; it gives null to stay out of the queue
	 * @param firstAttempt whether this is the acquisition's first attempt
	 * @return the grant ({@link AcquireReply.Granted#NOT_ISSUED} as its token if the
	 * plain command took it), or the holder's lease
	 * @see #acquire
	 */
	public AcquireReply attempt(String key, String name, String token, long leaseMillis,
			Supplier<@Nullable String> handOverChannel, long queueEntryTtlMillis, int block, boolean mayBeQueued,
			boolean firstAttempt) {
		boolean plainly = firstAttempt && block == 1 && !SharedTokens.isShared(token) && acquiresPlainly()
				&& !this.fencedNames.contains(name) && !this.contendedNames.contains(name);
		if (plainly) {
			AcquireReply.Granted granted = acquirePlainly(key, token, leaseMillis);
			if (granted != null) {
				return granted;
			}
			remember(this.contendedNames, name);
		}
		AcquireReply reply = acquire(key, token, leaseMillis, handOverChannel.get(), queueEntryTtlMillis, block,
				mayBeQueued);
		if (firstAttempt && !plainly && reply.granted()) {
			// Free at the first attempt: the next first attempt may try the plain
			// command.
			firstAttemptFoundFree(name);
		}
		return reply;
	}

	private static void remember(Set<String> names, String name) {
		if (names.size() >= MAX_REMEMBERED_NAMES) {
			names.clear();
		}
		names.add(name);
	}

	/**
	 * Returns whether an exclusive lock may be acquired with one plain command
	 * ({@link #acquirePlainly}) rather than the acquire script: only once the acquire
	 * script answered (the client's first acquisition checks the server with it), and
	 * only when no replica must acknowledge a grant and no restart quarantine is on,
	 * since both need the script (its {@code WAIT}, its check of the fencing counter).
	 */
	public boolean acquiresPlainly() {
		return this.acquireScriptAnswered && this.acknowledged == null && !this.quarantine.isOn();
	}

	/**
	 * Tries to acquire a free exclusive lock with {@code SET key token NX PX lease}, one
	 * command and no script: the same exclusion as the acquire script's, and the queue
	 * still comes first, since a release that has waiters hands the key over rather than
	 * freeing it. The grant has no fencing token yet; its holder asks for one when it
	 * needs it ({@link #issueFencingToken}). Call only if {@link #acquiresPlainly()}.
	 * @return the grant, with {@link AcquireReply.Granted#NOT_ISSUED} as its token, or
	 * null if the key exists: the lock is held, or the key is of another kind, or was
	 * handed to this token, which the acquire script tells apart
	 */
	public AcquireReply.@Nullable Granted acquirePlainly(String key, String token, long leaseMillis) {
		Boolean set = recorded(key, () -> this.scripts.setIfAbsent(key, token, leaseMillis));
		return Boolean.TRUE.equals(set) ? new AcquireReply.Granted(AcquireReply.Granted.NOT_ISSUED) : null;
	}

	/**
	 * Issues the fencing token of an exclusive lock acquired plainly, if the key still
	 * holds the owner token: the fencing counter plus one, never below the server's clock
	 * in microseconds, as the acquire script's grant. Holds of the lock's name are
	 * acquired with the acquire script from then on, which grants the token with the
	 * lock.
	 * @param key the Redis key of the lock
	 * @param token the owner token
	 * @param name the logical name of the lock
	 * @return the fencing token, or {@link AcquireReply.Granted#NOT_ISSUED} if the key no
	 * longer holds the owner token
	 * @throws org.springframework.dao.DataAccessException if Redis does not answer
	 */
	public long issueFencingToken(String key, String token, String name) {
		remember(this.fencedNames, name);
		Long issued = recorded(key,
				() -> this.scripts.execute(LockScripts.FENCE, List.of(key, this.keyspace.fenceKey(key)), token));
		return (issued != null) ? issued : AcquireReply.Granted.NOT_ISSUED;
	}

	/**
	 * Runs the acquire script: through the template alone, routed as every other command,
	 * when no replica must acknowledge a grant; else with {@code WAIT} after a grant on
	 * the same connection ({@link AcknowledgedScript}).
	 * @return its reply, with the acknowledgements appended to a grant if any are
	 * required
	 */
	private @Nullable List<Long> runAcquire(List<String> keys, String... args) {
		AcknowledgedScript acknowledged = this.acknowledged;
		if (acknowledged == null) {
			return this.scripts.execute(LockScripts.acquire(args[0]), keys, (Object[]) args);
		}
		AcknowledgedReply<List<Long>> run = acknowledged.run(LockScripts.acquire(args[0]), keys,
				RedisLockCommands::granted, args);
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

	/** Reports a restart quarantine that an attempt found, once per quarantine. */
	AcquireReply noticed(String key, AcquireReply reply) {
		if (reply instanceof AcquireReply.Held held && held.quarantined()) {
			this.quarantineNotice.found(key, held.holderLeaseMillis());
		}
		return reply;
	}

	/**
	 * Returns the arguments of the acquire scripts, the restart quarantine's length last
	 * if it is on.
	 */
	List<String> acquireArguments(String token, long leaseMillis, @Nullable String handOverChannel,
			long queueEntryTtlMillis, int block, boolean mayBeQueued) {
		List<String> args = new ArrayList<>(List.of(token, Long.toString(leaseMillis),
				(handOverChannel != null) ? handOverChannel : "", Long.toString(queueEntryTtlMillis),
				Integer.toString(block), mayBeQueued ? "1" : "0", Long.toString(claimMillis(leaseMillis)),
				(handOverChannel != null && this.keyspace.isShardedChannel(handOverChannel)) ? "spublish" : "publish"));
		addQuarantine(args);
		return args;
	}

	/**
	 * Returns the arguments of the release scripts, the restart quarantine's length last
	 * if it is on.
	 */
	List<String> releaseArguments(String token, long keepMillis, boolean leavingQueue) {
		List<String> args = new ArrayList<>(List.of(token, Long.toString(keepMillis), leavingQueue ? "1" : "0"));
		addQuarantine(args);
		return args;
	}

	private void addQuarantine(List<String> args) {
		if (this.quarantine.isOn()) {
			args.add(Long.toString(this.quarantine.duration().toMillis()));
		}
	}

	/**
	 * Tries to acquire the locks of several keys of one hash slot at once, all with the
	 * same owner token: all of them if every key is free, each with its own fencing
	 * token, else none. It never queues.
	 * @param keys the Redis keys of the locks, in lock order, all in one hash slot
	 * @param token the owner token
	 * @param leaseMillis the lease of every key
	 * @return the grant, or the first key found held and its holder's remaining lease
	 */
	public MultiAcquireReply multiAcquire(List<String> keys, String token, long leaseMillis) {
		List<String> scriptKeys = new ArrayList<>(keys);
		scriptKeys.add(this.keyspace.fenceKey(keys.get(0)));
		List<String> args = new ArrayList<>(List.of(token, Long.toString(leaseMillis)));
		if (this.quarantine.isOn()) {
			scriptKeys.add(this.keyspace.quarantineKey(keys.get(0)));
			addQuarantine(args);
		}
		return MultiAcquireReply.of(
				recorded(keys.get(0),
						() -> this.scripts.execute(LockScripts.MULTI_ACQUIRE, scriptKeys, args.toArray())),
				keys.size());
	}

	/**
	 * Releases a lock held with the token, handing it to the first valid waiter in its
	 * queue. Where replicas must acknowledge grants, a lock kept for its minimum hold is
	 * acknowledged too ({@code WAIT}), so that a failover to an acknowledging replica
	 * keeps it until the minimum hold ends; a plain release or a hand-over is not (the
	 * replica then keeps the lock longer, never shorter, and the waiter handed it over
	 * confirms it with an attempt that is acknowledged).
	 * @return what the release did
	 * @throws dev.distlock.ReplicaAcknowledgementException if a lock kept for its minimum
	 * hold was acknowledged by fewer replicas than must
	 */
	public ReleaseOutcome release(String key, String token, long keepMillis) {
		AcknowledgedScript acknowledged = this.acknowledged;
		if (keepMillis > 0 && acknowledged != null) {
			return releaseAcknowledged(acknowledged, key, token, keepMillis, false);
		}
		return runRelease(key, token, keepMillis, false);
	}

	/**
	 * Releases a lock held with the token, as {@link #release(String, String, long)},
	 * with one call that touches the lock's key alone where it can: an exclusive lock
	 * released without a minimum hold, whose name did not last find its key taken or held
	 * past a release. The call deletes the key only if it holds the token alone: the
	 * server's native conditional delete where it has one ({@code DELEX key IFEQ token}
	 * on Redis 8.4, {@code DELIFEQ key token} on Valkey 9), else
	 * {@code delete-if-equal.lua} (a {@code GET} and a {@code DEL}). While anyone waits,
	 * the key holds the token with the queued mark ({@code acquire.lua}), the call
	 * deletes nothing, and the release script runs, which hands the lock over (or finds
	 * it lost). Lock names whose call deleted nothing are remembered as contended, as in
	 * {@link #attempt}.
	 * @param name the logical name of the lock
	 * @return what the release did
	 * @throws dev.distlock.ReplicaAcknowledgementException as
	 * {@link #release(String, String, long)}
	 */
	public ReleaseOutcome release(String key, String name, String token, long keepMillis) {
		if (releasesByConditionalDelete(name, token, keepMillis)) {
			Boolean deleted = recorded(key, () -> this.conditionalDelete.delete(key, token, this.probeKey));
			if (Boolean.TRUE.equals(deleted)) {
				return ReleaseOutcome.DELETED;
			}
			if (deleted != null) {
				conditionalDeleteDeletedNothing(name);
			}
		}
		return release(key, token, keepMillis);
	}

	/**
	 * Whether a release tries the conditional delete first: an exclusive lock released
	 * without a minimum hold, whose name did not last find its key taken or held past a
	 * release.
	 */
	boolean releasesByConditionalDelete(String name, String token, long keepMillis) {
		return keepMillis == 0 && !SharedTokens.isShared(token) && !this.contendedNames.contains(name);
	}

	/**
	 * Remembers a lock name as contended after its conditional delete deleted nothing
	 * (someone waited, or the lock was lost): its releases run the release script.
	 */
	void conditionalDeleteDeletedNothing(String name) {
		remember(this.contendedNames, name);
	}

	/**
	 * Forgets that a lock name was contended, after an acquisition's first attempt found
	 * its key free (a blocking one in {@link #attempt}, a reactive one in
	 * {@code ReactiveAcquirer}): its next first attempt may be plain, and its next
	 * release tries the conditional delete again.
	 * @param name the logical name of the lock
	 */
	public void firstAttemptFoundFree(String name) {
		this.contendedNames.remove(name);
	}

	private ReleaseOutcome releaseAcknowledged(AcknowledgedScript acknowledged, String key, String token,
			long keepMillis, boolean leavingQueue) {
		AcknowledgedReply<Long> run = recorded(key,
				() -> acknowledged.run(LockScripts.release(token), scriptKeys(key),
						(reply) -> ReleaseOutcome.of(reply) == ReleaseOutcome.KEPT_FOR_MIN_HOLD,
						releaseArguments(token, keepMillis, leavingQueue).toArray(String[]::new)));
		ReleaseOutcome outcome = ReleaseOutcome.of(run.reply());
		ReplicaAcknowledgement required = acknowledged.acknowledgement();
		if (!run.suffices(required.replicas())) {
			throw ReplicaAcknowledgementException.minimumHold(key, run.replicas(), required.replicas(),
					required.timeout(), keepMillis);
		}
		return outcome;
	}

	/**
	 * Takes a waiter that gives up out of the lock's queue, and releases the lock if the
	 * token holds it: a release handed it to the waiter in the meantime, an acquire whose
	 * reply was lost took it, or a release of the holder failed. Used by
	 * {@link PendingReleases}.
	 * @param keepMillis how long the lock must still be kept (what is left of a holder's
	 * minimum hold), 0 to hand it on to the next waiter at once; a lock kept is
	 * acknowledged by replicas as by {@link #release}
	 * @return as {@link #release}
	 * @throws dev.distlock.ReplicaAcknowledgementException as {@link #release}
	 */
	public ReleaseOutcome leaveQueue(String key, String token, long keepMillis) {
		AcknowledgedScript acknowledged = this.acknowledged;
		if (keepMillis > 0 && acknowledged != null) {
			return releaseAcknowledged(acknowledged, key, token, keepMillis, true);
		}
		return runRelease(key, token, keepMillis, true);
	}

	private ReleaseOutcome runRelease(String key, String token, long keepMillis, boolean leavingQueue) {
		return ReleaseOutcome.of(recorded(key, () -> this.scripts.execute(LockScripts.release(token), scriptKeys(key),
				releaseArguments(token, keepMillis, leavingQueue).toArray())));
	}

	/**
	 * Returns the keys of the acquire and release scripts: the lock, its fencing counter,
	 * queue and waiters' entries, and the restart quarantine's key if it is on.
	 */
	List<String> scriptKeys(String key) {
		return this.keyspace.scriptKeys(key, this.quarantine.isOn());
	}

	/**
	 * Renews the leases of a batch of locks, each only if it still holds its owner token.
	 * Where replicas must acknowledge grants, one {@code WAIT} follows the batch if it
	 * renewed any lease.
	 * @param keys the Redis keys of the locks (one hash slot on a cluster)
	 * @param tokens the owner token of each key, in the same order
	 * @param leaseMillis the lease to extend them to
	 * @return per lock, whether its lease was renewed, and whether enough replicas
	 * acknowledged the renewals
	 */
	public RenewalReply renew(List<String> keys, List<String> tokens, long leaseMillis) {
		return recorded(keys.get(0), () -> renewBatch(keys, tokens, leaseMillis, false));
	}

	/**
	 * Raises the expiry of one lock to the lease if it still holds its owner token, and
	 * never lowers it: the confirmation of a hand-over, which must not undo an extension
	 * its holder sent meanwhile ({@link #renew} sets the lease exactly, as an extension
	 * does). Replicas acknowledge it as they do a renewal.
	 * @param key the Redis key of the lock
	 * @param token its owner token
	 * @param leaseMillis the least lease to leave it with
	 * @return whether it still held the token, and whether enough replicas acknowledged
	 */
	public RenewalReply renewAtLeast(String key, String token, long leaseMillis) {
		return recorded(key, () -> renewBatch(List.of(key), List.of(token), leaseMillis, true));
	}

	private RenewalReply renewBatch(List<String> keys, List<String> tokens, long leaseMillis, boolean raiseOnly) {
		String[] args = RenewScriptCodec.arguments(tokens, leaseMillis, raiseOnly);
		AcknowledgedScript acknowledged = this.acknowledged;
		if (acknowledged == null) {
			List<Long> results = this.scripts.execute(LockScripts.RENEW, keys, (Object[]) args);
			return RenewalReply.notAsked(RenewScriptCodec.renewed(results, keys.size()));
		}
		AcknowledgedReply<List<Long>> run = acknowledged.run(LockScripts.RENEW, keys, (results) -> results.contains(1L),
				args);
		return new RenewalReply(RenewScriptCodec.renewed(run.reply(), keys.size()),
				run.suffices(acknowledged.acknowledgement().replicas()), run.replicas());
	}

	/**
	 * Runs one command, recording it in the client's reachability under the key that
	 * tells its node: sent, then answered or failed.
	 */
	private <T> T recorded(String key, Supplier<T> command) {
		long sent = this.reachability.sending(key);
		T result;
		try {
			result = command.get();
		}
		catch (RuntimeException | Error ex) {
			this.reachability.failed(key, sent, ex);
			throw ex;
		}
		this.reachability.answered(key, sent);
		return result;
	}

	/**
	 * Returns where the commands are sent ({@link RedisAddress}), for messages.
	 * @return the address, such as {@code localhost:6379}
	 */
	public String address() {
		return this.address;
	}

	/**
	 * Returns the exception of a lock operation that Redis did not answer, naming where
	 * it was sent.
	 * @param key the Redis key of the lock
	 * @param name the logical name of the lock
	 * @param operation what was being done, such as "acquire"
	 * @param cause the Redis client's exception
	 * @return the exception
	 */
	public LockUnavailableException unavailable(String key, String name, String operation, Throwable cause) {
		return LockUnavailableException.at(this.address, key, name, operation, cause);
	}

	/**
	 * Returns the commands that monitoring sends: inspecting a key, finding the masters
	 * of a cluster, checking the scripts.
	 */
	public LockMonitoringCommands monitoring() {
		return this.monitoring;
	}

}
