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

import java.util.BitSet;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.Consumer;

import org.jspecify.annotations.Nullable;

/**
 * What a client knows of its connection to Redis: when a lock command last failed, when a
 * connection was last lost, whether Redis has stopped answering (commands outstanding,
 * none completing for a while), and whether the client is reconnecting to it. On a
 * cluster it knows this per hash slot as well, so that what one master does says nothing
 * about the locks another one serves.
 * <ul>
 * <li>A hold passes between threads of the client without Redis only while the client as
 * a whole is not in doubt ({@link #inDoubt()}), and only if Redis confirmed it after the
 * last failure or lost connection (after a reconnect, Redis may have restarted
 * empty).</li>
 * <li>A wait that ends while the lock's own node is in doubt ({@link #inDoubt(String)})
 * ends as unavailable, never as "not acquired": the last lock command on that node
 * failed, its commands are stalled, or a connection to it was lost and the client is
 * still reconnecting, with no answer from it since. Only the lock's own commands, and
 * connections the client tries to reconnect, count here: a connection the application
 * closes on purpose does not make a busy lock look like an outage.</li>
 * </ul>
 * Whoever must act on a lock command that Redis did not answer (on a cluster, to have the
 * topology read again) is told of each one.
 */
public final class RedisReachability {

	/**
	 * How long commands may be outstanding with none completing before Redis is in doubt:
	 * far beyond the time Redis takes to run a lock script, well within a command
	 * timeout.
	 */
	public static final long STALL_NANOS = TimeUnit.MILLISECONDS.toNanos(500);

	/**
	 * How recent an answer of a lock's node must be for a wait that ends without the lock
	 * to report it held elsewhere without asking the node again.
	 */
	public static final long RECENT_ANSWER_NANOS = TimeUnit.MILLISECONDS.toNanos(50);

	private static final int CLUSTER_SLOTS = 16384;

	/** Every lock command of the client, to whichever node it went. */
	private final NodeHealth client = new NodeHealth();

	/**
	 * On a cluster, the commands and connections of each hash slot's node, created when
	 * first used; null on a single server, whose health is the client's.
	 */
	private final @Nullable AtomicReferenceArray<@Nullable NodeHealth> slots;

	/** Told of each lock command that Redis did not answer. */
	private final Runnable unanswered;

	private volatile long lostConnectionNanos = System.nanoTime();

	private volatile boolean lostConnection;

	private volatile @Nullable String misconfiguration;

	/** Creates the reachability of a client of one Redis server (or Sentinel master). */
	public RedisReachability() {
		this(false);
	}

	/**
	 * Creates the reachability of a client.
	 * @param cluster whether Redis is a cluster, whose nodes are told apart by hash slot
	 */
	public RedisReachability(boolean cluster) {
		this(cluster, () -> {
		});
	}

	/**
	 * Creates the reachability of a client that is told of every lock command that Redis
	 * did not answer.
	 * @param cluster whether Redis is a cluster, whose nodes are told apart by hash slot
	 * @param unanswered run after each lock command that failed without an answer from
	 * Redis (not for an error reply that means misconfiguration, nor for a failure of an
	 * interrupted caller); it must not block, since a command's failure may be recorded
	 * on a thread of the Redis client
	 */
	public RedisReachability(boolean cluster, Runnable unanswered) {
		this.slots = cluster ? new AtomicReferenceArray<>(CLUSTER_SLOTS) : null;
		this.unanswered = unanswered;
	}

	/**
	 * Records that a command is about to be sent.
	 * @param key a Redis key of the command, which tells its node on a cluster; null for
	 * a command that names no key
	 * @return the send time, by {@link System#nanoTime()}
	 */
	public long sending(@Nullable String key) {
		long now = System.nanoTime();
		this.client.sending(now);
		NodeHealth node = slotNode(key);
		if (node != null) {
			node.sending(now);
		}
		return now;
	}

	/**
	 * Records that a command sent with {@link #sending} is done.
	 * @param key the key given to {@link #sending}
	 * @param sentNanos the send time that {@link #sending} returned
	 * @param answered whether Redis answered it
	 * @param excused whether a failure says nothing about Redis (the caller was
	 * interrupted)
	 * @param misconfiguration what to fix if Redis answered with an error that means
	 * misconfiguration, {@code null} if it did not
	 */
	public void done(@Nullable String key, long sentNanos, boolean answered, boolean excused,
			@Nullable String misconfiguration) {
		long now = System.nanoTime();
		this.misconfiguration = misconfiguration;
		this.client.done(now, sentNanos, answered, excused);
		NodeHealth node = slotNode(key);
		if (node != null) {
			node.done(now, sentNanos, answered, excused);
		}
		if (!answered && !excused) {
			this.unanswered.run();
		}
	}

	/**
	 * Records that a command sent with {@link #sending} was answered.
	 * @param key the key given to {@link #sending}
	 * @param sentNanos the send time that {@link #sending} returned
	 */
	public void answered(@Nullable String key, long sentNanos) {
		done(key, sentNanos, true, true, null);
	}

	/**
	 * Records that a command sent with {@link #sending} failed. An error reply that means
	 * misconfiguration is an answer, with what to fix; the failure of an interrupted
	 * caller, or an {@link Error}, says nothing about Redis.
	 * @param key the key given to {@link #sending}
	 * @param sentNanos the send time that {@link #sending} returned
	 * @param failure what the command threw
	 */
	public void failed(@Nullable String key, long sentNanos, Throwable failure) {
		if (failure instanceof RuntimeException ex) {
			String misconfiguration = RedisErrors.fix(ex);
			done(key, sentNanos, misconfiguration != null, Thread.currentThread().isInterrupted(), misconfiguration);
		}
		else {
			done(key, sentNanos, false, true, null);
		}
	}

	/**
	 * Returns what to fix, if the last lock command got an error reply that means
	 * misconfiguration (a missing permission, wrong credentials).
	 * @return the fix, or {@code null}
	 */
	public @Nullable String misconfiguration() {
		return this.misconfiguration;
	}

	/**
	 * Records that a connection to Redis was lost, or closed (Redis may come back empty):
	 * no hold passes between threads until Redis confirms it again.
	 */
	public void connectionLost() {
		this.lostConnectionNanos = System.nanoTime();
		this.lostConnection = true;
	}

	/**
	 * Records that the client tries to reconnect to a node whose connection was lost: the
	 * node's locks are in doubt until it answers a lock command or a connection to it is
	 * back.
	 * @param nodeSlots on a cluster, the slots that the node serves; null for the single
	 * server of a client that is not on a cluster
	 */
	public void reconnecting(@Nullable BitSet nodeSlots) {
		forEachNode(nodeSlots, NodeHealth::reconnecting);
	}

	/**
	 * Records that a connection to a node is (back) up.
	 * @param nodeSlots as for {@link #reconnecting}
	 */
	public void reconnected(@Nullable BitSet nodeSlots) {
		forEachNode(nodeSlots, NodeHealth::reconnected);
	}

	/**
	 * Whether Redis is in doubt now, anywhere the client sends lock commands: the last
	 * lock command failed, or lock commands are outstanding and none has completed for a
	 * while (or, on a single server, the client is reconnecting to it).
	 * @return whether the client as a whole is in doubt
	 */
	public boolean inDoubt() {
		return this.client.inDoubt(System.nanoTime());
	}

	/**
	 * Whether the node of a lock is in doubt now: its last lock command failed, its lock
	 * commands are outstanding and none has completed for a while, or the client is
	 * reconnecting to it and it has answered nothing since. On a single server, that
	 * server; on a cluster, the master of the key's slot, whatever the other masters do.
	 * @param key the Redis key of the lock
	 * @return whether a wait for the lock that ends now ends because of Redis
	 */
	public boolean inDoubt(String key) {
		NodeHealth node = slotNode(key);
		return ((node != null) ? node : this.client).inDoubt(System.nanoTime());
	}

	/**
	 * Whether the node of a lock answered a lock command sent at or after the given time:
	 * evidence that it was up then. A wait that ends without the lock and without such
	 * recent evidence asks Redis once more before it reports the lock as held elsewhere,
	 * since the events that tell of a lost connection may come late.
	 * @param key the Redis key of the lock
	 * @param sinceNanos the earliest send time, by {@link System#nanoTime()}, that counts
	 * @return whether the node answered a command sent since then
	 */
	public boolean answeredSince(String key, long sinceNanos) {
		NodeHealth node = slotNode(key);
		return ((node != null) ? node : this.client).answeredSentNanos - sinceNanos >= 0;
	}

	/**
	 * Whether a wait for a lock that ends without it must ask the lock's node once more
	 * before it reports the lock held elsewhere: the node is not known to be in doubt,
	 * yet answered no lock command sent in the last {@link #RECENT_ANSWER_NANOS}.
	 * @param key the Redis key of the lock
	 * @return whether to ask the node again
	 */
	public boolean needsFreshAnswer(String key) {
		return !inDoubt(key) && !answeredSince(key, System.nanoTime() - RECENT_ANSWER_NANOS);
	}

	/**
	 * Whether a hold confirmed by a command sent at the given time may pass to another
	 * thread without Redis: nothing is in doubt, and the confirmation was sent after the
	 * last failure and the last lost connection.
	 * @param confirmedSendNanos when the confirming command was sent
	 * @return whether the hold may pass
	 */
	public boolean allowsLocalPass(long confirmedSendNanos) {
		return !inDoubt() && this.client.confirmedSinceFailure(confirmedSendNanos)
				&& (!this.lostConnection || confirmedSendNanos - this.lostConnectionNanos > 0);
	}

	private @Nullable NodeHealth slotNode(@Nullable String key) {
		return (this.slots != null && key != null) ? slotNode(LockKeyspace.slot(key)) : null;
	}

	private NodeHealth slotNode(int slot) {
		AtomicReferenceArray<@Nullable NodeHealth> nodes = Objects.requireNonNull(this.slots);
		NodeHealth node = nodes.get(slot);
		while (node == null) {
			nodes.compareAndSet(slot, null, new NodeHealth());
			node = nodes.get(slot);
		}
		return node;
	}

	private void forEachNode(@Nullable BitSet nodeSlots, Consumer<NodeHealth> change) {
		if (this.slots == null) {
			change.accept(this.client);
		}
		else if (nodeSlots != null) {
			nodeSlots.stream().filter((slot) -> slot < CLUSTER_SLOTS).forEach((slot) -> change.accept(slotNode(slot)));
		}
	}

	/**
	 * What the client knows of the lock commands and connections of one node (or, for the
	 * client's own record, of all of them).
	 */
	private static final class NodeHealth {

		private final AtomicInteger outstanding = new AtomicInteger();

		private volatile long progressNanos = System.nanoTime();

		private volatile long answerNanos = System.nanoTime();

		/** The latest send time of a command that the node answered. */
		private volatile long answeredSentNanos = System.nanoTime();

		private volatile long failureNanos = System.nanoTime();

		private volatile boolean failed;

		private volatile long reconnectingNanos = System.nanoTime();

		private volatile boolean reconnecting;

		void sending(long now) {
			if (this.outstanding.getAndIncrement() == 0) {
				this.progressNanos = now;
			}
		}

		void done(long now, long sentNanos, boolean answered, boolean excused) {
			this.outstanding.decrementAndGet();
			this.progressNanos = now;
			if (answered) {
				this.answerNanos = now;
				if (sentNanos - this.answeredSentNanos > 0) {
					this.answeredSentNanos = sentNanos;
				}
			}
			else if (!excused) {
				this.failureNanos = now;
				this.failed = true;
			}
		}

		/**
		 * Records that the client reconnects to the node now (after any answer so far).
		 */
		void reconnecting() {
			this.reconnectingNanos = System.nanoTime();
			this.reconnecting = true;
		}

		void reconnected() {
			this.reconnecting = false;
		}

		boolean inDoubt(long now) {
			return (this.failed && this.failureNanos - this.answerNanos >= 0)
					|| (this.reconnecting && this.reconnectingNanos - this.answerNanos >= 0)
					|| (this.outstanding.get() > 0 && now - this.progressNanos > STALL_NANOS);
		}

		boolean confirmedSinceFailure(long confirmedSendNanos) {
			return !this.failed || confirmedSendNanos - this.failureNanos > 0;
		}

	}

}
