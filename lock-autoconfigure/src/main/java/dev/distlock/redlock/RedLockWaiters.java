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

package dev.distlock.redlock;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;

import org.jspecify.annotations.Nullable;

/**
 * Wakes a {@link RedLockClient}'s waiters when a lock they wait for is released on any
 * node. Each node's release script publishes the released owner token on the lock's
 * channel; while a thread of this client waits for a lock, the client is subscribed to
 * that channel on every node (one subscription per lock and node, however many threads
 * wait). The first message of a release, from whichever node, wakes the first of the
 * lock's waiters in arrival order, and the other nodes' messages of the same release wake
 * the same waiter again (its attempt may have reached a node before the release), so that
 * the waiters of one client take turns instead of all trying at once; the others keep
 * their pause. A message only ends a pause: the waiter then attempts as any other, and a
 * majority still decides.
 * <p>
 * A message can be lost (a node down or not yet subscribed, a subscription refused, a
 * user who may not publish): each waiter still tries again after its pause, so a lost
 * message costs at most that. Between a waiter's first refused attempt and the first
 * confirmed subscription a release goes unheard, so the first confirmation wakes the
 * first waiter, which tries again.
 */
final class RedLockWaiters {

	/**
	 * How many released owner tokens of a lock are remembered, with the waiter each woke.
	 */
	private static final int RECENT_RELEASES = 16;

	private final List<RedLockNode> nodes;

	/**
	 * Runs what the nodes' event loops report (messages, confirmed subscriptions), so
	 * that an event loop never waits for this object's monitor, which a waiting thread
	 * may hold while it is not scheduled: every node's replies would wait too.
	 */
	private final Executor events;

	/** The waited-for locks, by channel; guarded by this. */
	private final Map<String, Lock> locks = new HashMap<>();

	/**
	 * Creates the waiters of a client.
	 * @param nodes the client's nodes
	 * @param events where to handle what the nodes report, off their event loops
	 */
	RedLockWaiters(List<RedLockNode> nodes, Executor events) {
		this.nodes = nodes;
		this.events = events;
		for (RedLockNode node : nodes) {
			node.listen((channel, owner) -> {
				try {
					this.events.execute(() -> released(node, channel, owner));
				}
				catch (RejectedExecutionException ex) {
					// The client is closing.
				}
			});
		}
	}

	/**
	 * Puts the calling thread at the end of the waiters of a lock, subscribing to its
	 * channel on every node if it is the first.
	 * @param channel the lock's release channel
	 * @return the thread's place, to be closed when it stops waiting
	 */
	Waiter join(String channel) {
		Waiter waiter = new Waiter(channel);
		synchronized (this) {
			Lock lock = this.locks.get(channel);
			if (lock == null) {
				lock = new Lock();
				this.locks.put(channel, lock);
				for (RedLockNode node : this.nodes) {
					Lock subscribed = lock;
					node.subscribe(channel).thenRunAsync(() -> confirmed(channel, subscribed), this.events);
				}
			}
			lock.waiters.addLast(waiter);
		}
		return waiter;
	}

	/** Wakes the first waiter once the first node confirmed the subscription. */
	private void confirmed(String channel, Lock subscribed) {
		Waiter first;
		synchronized (this) {
			if (this.locks.get(channel) != subscribed || subscribed.confirmed) {
				return;
			}
			subscribed.confirmed = true;
			first = subscribed.waiters.peekFirst();
		}
		if (first != null) {
			first.wake();
		}
	}

	private void leave(Waiter waiter, boolean acquired) {
		Waiter next = null;
		synchronized (this) {
			Lock lock = this.locks.get(waiter.channel);
			if (lock == null) {
				return;
			}
			boolean wasFirst = lock.waiters.peekFirst() == waiter;
			lock.waiters.remove(waiter);
			if (lock.waiters.isEmpty()) {
				this.locks.remove(waiter.channel);
				for (RedLockNode node : this.nodes) {
					node.unsubscribe(waiter.channel);
				}
			}
			else if (wasFirst && !acquired) {
				// A release meant for it may have come: the next one tries instead.
				next = lock.waiters.peekFirst();
			}
		}
		if (next != null) {
			next.wake();
		}
	}

	/**
	 * Wakes the first waiter of the lock, unless the release was a waiter's own failed
	 * attempt. Every node announces the same release: its later messages wake the same
	 * waiter again while it still waits, and nobody once it got the lock, so that one
	 * release does not wake every waiter in turn.
	 */
	private void released(RedLockNode node, String channel, String owner) {
		Waiter first = null;
		synchronized (this) {
			Lock lock = this.locks.get(channel);
			if (lock == null) {
				// Nobody waits any more: a subscription left from an outage, or a
				// message sent before the unsubscription arrived.
				node.unsubscribe(channel);
				return;
			}
			for (Waiter waiter : lock.waiters) {
				if (owner.equals(waiter.attempt)) {
					return;
				}
			}
			Waiter woken = lock.recent.get(owner);
			if (woken != null) {
				// Another node's message of a release that woke a waiter already: it
				// wakes
				// the same one again while it waits, since its attempt may have reached
				// this node before the release did.
				first = lock.waiters.contains(woken) ? woken : null;
			}
			else {
				first = lock.waiters.peekFirst();
				if (first != null) {
					lock.recent.put(owner, first);
				}
			}
		}
		if (first != null) {
			first.wake();
		}
	}

	/** The waiters of one lock in this client, and what they heard. */
	private static final class Lock {

		private final Deque<Waiter> waiters = new ArrayDeque<>();

		/** The waiter that each recent release woke, by released owner token. */
		private final Map<String, Waiter> recent = new LinkedHashMap<>() {

			@Override
			protected boolean removeEldestEntry(Map.Entry<String, Waiter> eldest) {
				return size() > RECENT_RELEASES;
			}

		};

		private boolean confirmed;

	}

	/**
	 * A thread's place among the waiters of a lock.
	 */
	final class Waiter implements AutoCloseable {

		private final String channel;

		private final Thread thread = Thread.currentThread();

		private final AtomicBoolean woken = new AtomicBoolean();

		private volatile @Nullable String attempt;

		private boolean acquired;

		private Waiter(String channel) {
			this.channel = channel;
		}

		/**
		 * Notes the owner token of the thread's next attempt, whose own release (when it
		 * fails) wakes nobody of this client.
		 * @param owner the attempt's owner token
		 */
		void attempting(String owner) {
			this.attempt = owner;
		}

		/** Notes that the thread acquired the lock: leaving then wakes nobody. */
		void acquired() {
			this.acquired = true;
		}

		/**
		 * Parks the thread until a release wakes it, the time is up or it is interrupted;
		 * a wake-up that came while it was attempting ends the pause at once.
		 * @param nanos the longest pause
		 * @return whether a release woke it
		 */
		boolean await(long nanos) {
			long end = System.nanoTime() + nanos;
			while (!this.woken.getAndSet(false)) {
				long left = end - System.nanoTime();
				if (left <= 0 || this.thread.isInterrupted()) {
					return false;
				}
				LockSupport.parkNanos(this, left);
			}
			return true;
		}

		private void wake() {
			this.woken.set(true);
			LockSupport.unpark(this.thread);
		}

		@Override
		public void close() {
			leave(this, this.acquired);
		}

	}

}
