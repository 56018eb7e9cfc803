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

package dev.distlock.redis.messages;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.IntFunction;

import org.jspecify.annotations.Nullable;

import dev.distlock.redis.monitor.ShardedSubscriptionState;
import dev.distlock.redis.protocol.LockKeyspace;

/**
 * Which cluster slots a client's waiters need a sharded release channel for, and which of
 * those channels are confirmed subscribed: a slot is wanted from the moment the first
 * waiter on a lock of that slot begins until the last one ends, and only a confirmed
 * channel is given to waiters to queue with. A {@link Subscriber} is told when a slot
 * becomes wanted and when it stops being wanted, and reports confirmations and losses.
 */
public final class SlotSubscriptions {

	private final IntFunction<String> channelOfSlot;

	private final Map<Integer, Slot> wanted = new TreeMap<>();

	private volatile Subscriber subscriber = Subscriber.NONE;

	/**
	 * Creates the subscriptions of a client.
	 * @param channelOfSlot the client's sharded release channel of each slot
	 */
	public SlotSubscriptions(IntFunction<String> channelOfSlot) {
		this.channelOfSlot = channelOfSlot;
	}

	/**
	 * Sets what subscribes, or {@link Subscriber#NONE} once the client stops.
	 * @param subscriber the subscriber
	 */
	synchronized void subscriber(Subscriber subscriber) {
		this.subscriber = subscriber;
	}

	/** Counts a waiter on a lock key in; the first one of its slot subscribes. */
	synchronized int join(String key) {
		int slot = LockKeyspace.slot(key);
		Slot state = this.wanted.computeIfAbsent(slot, (s) -> new Slot(this.channelOfSlot.apply(s)));
		if (state.waiters++ == 0) {
			state.pendingSince = System.nanoTime();
			this.subscriber.change(state.channel, true);
		}
		return slot;
	}

	/** Counts a waiter out; the last one of its slot unsubscribes. */
	synchronized void leave(int slot) {
		Slot state = this.wanted.get(slot);
		if (state != null && --state.waiters == 0) {
			state.confirmed = false;
			this.wanted.remove(slot);
			this.subscriber.change(state.channel, false);
		}
	}

	/** Returns the slot's channel if its subscription is confirmed, else null. */
	synchronized @Nullable String channelIfSubscribed(int slot) {
		Slot state = this.wanted.get(slot);
		return (state != null && state.confirmed) ? state.channel : null;
	}

	/** Records that Redis confirmed a subscription, if its slot is still wanted. */
	synchronized void confirmed(String channel) {
		Slot state = this.wanted.get(LockKeyspace.slot(channel));
		if (state != null && state.channel.equals(channel)) {
			state.confirmed = true;
		}
	}

	/**
	 * Records that a subscription is gone (unsubscribed by Redis, or its connection
	 * lost): waiters fall back until it is confirmed again.
	 * @param channel the channel
	 * @return whether its slot is still wanted, so that it must be subscribed again
	 */
	synchronized boolean lost(String channel) {
		Slot state = this.wanted.get(LockKeyspace.slot(channel));
		if (state == null || !state.channel.equals(channel)) {
			return false;
		}
		if (state.confirmed) {
			state.confirmed = false;
			state.pendingSince = System.nanoTime();
		}
		return true;
	}

	/** Returns the channels of wanted slots whose subscription is not confirmed. */
	synchronized List<String> unconfirmed() {
		return this.wanted.values().stream().filter((state) -> !state.confirmed).map((state) -> state.channel).toList();
	}

	/**
	 * Returns the state of the subscriptions, slots in ascending order: a slot is overdue
	 * once unconfirmed for longer than {@code overdueNanos}.
	 */
	synchronized ShardedSubscriptionState state(boolean running, boolean connected, long overdueNanos) {
		long now = System.nanoTime();
		List<Integer> subscribed = new ArrayList<>();
		List<Integer> pending = new ArrayList<>();
		List<Integer> overdue = new ArrayList<>();
		this.wanted.forEach((slot, state) -> {
			(state.confirmed ? subscribed : pending).add(slot);
			if (!state.confirmed && now - state.pendingSince > overdueNanos) {
				overdue.add(slot);
			}
		});
		return new ShardedSubscriptionState(running, connected, subscribed, pending, overdue);
	}

	/** Subscribes to and unsubscribes from sharded channels, without blocking. */
	@FunctionalInterface
	interface Subscriber {

		/** Subscribes nowhere: the state before the client starts and after it stops. */
		Subscriber NONE = (channel, subscribe) -> {
		};

		void change(String channel, boolean subscribe);

	}

	private static final class Slot {

		private final String channel;

		private int waiters;

		private boolean confirmed;

		private long pendingSince;

		private Slot(String channel) {
			this.channel = channel;
		}

	}

}
