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

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.function.Predicate;

import org.jspecify.annotations.Nullable;

/**
 * The replies of every node to one request, decided as soon as a majority gave the reply
 * asked for, or as soon as no majority can give it any more (the others refused or
 * failed), without waiting for the rest. Each reply is bounded by the node timeout, so a
 * decision never takes longer than that.
 *
 * @param <R> the type of a node's reply
 */
final class MajorityReplies<R> {

	private final List<CompletableFuture<R>> replies;

	private final int majority;

	private final CompletableFuture<Void> decided = new CompletableFuture<>();

	private int successes;

	private int settled;

	private MajorityReplies(List<CompletableFuture<R>> replies, Predicate<R> success) {
		this.replies = replies;
		this.majority = replies.size() / 2 + 1;
		for (CompletableFuture<R> reply : replies) {
			reply.whenComplete((value, failure) -> settle(failure == null && success.test(value)));
		}
	}

	private void settle(boolean succeeded) {
		boolean decide;
		synchronized (this) {
			if (succeeded) {
				this.successes++;
			}
			this.settled++;
			int pending = this.replies.size() - this.settled;
			decide = this.successes >= this.majority || this.successes + pending < this.majority;
		}
		if (decide) {
			this.decided.complete(null);
		}
	}

	/**
	 * Starts counting the replies.
	 * @param replies one reply per node, in the order of the nodes
	 * @param success whether a reply is the one a majority must give
	 * @return the replies, decided when a majority succeeded or can no longer succeed
	 */
	static <R> MajorityReplies<R> of(List<CompletableFuture<R>> replies, Predicate<R> success) {
		return new MajorityReplies<>(replies, success);
	}

	/**
	 * Waits until the outcome is decided.
	 * @return this
	 * @throws InterruptedException if the thread was interrupted while waiting
	 */
	MajorityReplies<R> await() throws InterruptedException {
		try {
			this.decided.get();
		}
		catch (ExecutionException ex) {
			throw new IllegalStateException(ex);
		}
		return this;
	}

	/** Waits until the outcome is decided, keeping an interrupt for later. */
	MajorityReplies<R> awaitUninterruptibly() {
		boolean interrupted = false;
		while (true) {
			try {
				await();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
		return this;
	}

	/** Runs the action once the outcome is decided, on the thread that decided it. */
	void whenDecided(Runnable action) {
		this.decided.thenRun(action);
	}

	/** Whether a majority of the nodes, so far, gave the reply asked for. */
	synchronized boolean succeeded() {
		return this.successes >= this.majority;
	}

	/** How many nodes have, so far, not answered: their request failed or timed out. */
	int failures() {
		int failures = 0;
		for (CompletableFuture<R> reply : this.replies) {
			if (reply.isCompletedExceptionally()) {
				failures++;
			}
		}
		return failures;
	}

	/**
	 * Whether so many nodes failed that no majority can answer: the store is unavailable,
	 * rather than the lock held by someone else.
	 */
	boolean majorityUnreachable() {
		return failures() > this.replies.size() - this.majority;
	}

	/** The reply of the node at the index, or null if it has not answered (yet). */
	@Nullable R reply(int index) {
		CompletableFuture<R> reply = this.replies.get(index);
		return (reply.isDone() && !reply.isCompletedExceptionally()) ? reply.join() : null;
	}

	/** The reply future of the node at the index. */
	CompletableFuture<R> future(int index) {
		return this.replies.get(index);
	}

	/** Describes the failures so far, one per node, for an exception's message. */
	String describeFailures(List<RedLockNode> nodes) {
		StringBuilder text = new StringBuilder();
		for (int i = 0; i < this.replies.size(); i++) {
			CompletableFuture<R> reply = this.replies.get(i);
			if (reply.isCompletedExceptionally()) {
				Throwable cause = reply.handle((value, ex) -> ex).join();
				if (cause instanceof java.util.concurrent.CompletionException && cause.getCause() != null) {
					cause = cause.getCause();
				}
				text.append((text.length() > 0) ? "; " : "")
					.append(nodes.get(i).name())
					.append(": ")
					.append((cause instanceof java.util.concurrent.TimeoutException)
							? "no reply within the node timeout"
							: cause.getClass().getSimpleName() + " " + cause.getMessage());
			}
		}
		return text.toString();
	}

}
