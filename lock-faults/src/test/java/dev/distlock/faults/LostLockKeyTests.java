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

package dev.distlock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.springframework.context.ConfigurableApplicationContext;

import dev.distlock.LockClient;
import dev.distlock.LockHandle;
import dev.distlock.LockOptions;
import dev.distlock.faults.RedisNode.Persistence;
import dev.distlock.redis.protocol.LockKeyspace;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 23, finding 5: a lock key that disappears from Redis without a disconnect, while
 * four threads of client A pass it among themselves. Deleted ({@code DEL}), or evicted by
 * Redis under {@code maxmemory-policy volatile-ttl} (every lock key has a TTL, so it goes
 * before any key without one), each right after A took the key in Redis for a new block
 * of passes. Client B then asks for the key, finds it free and holds it. Counted: bodies
 * of A that start after the loss with a fencing token of the lost hold and
 * {@code isLeaseLost()} false, those overlapping B's holds, and the time until A is told
 * (a {@code leaseLost} event). Guaranteed: no such body starts later than the
 * confirmation window after the loss, A is told within the window plus one body (plus
 * slack for the round trips), and B's fencing tokens are above A's. The control: a hold
 * that is not passed on learns of the loss only from its next renewal or its release, so
 * B's hold overlaps it.
 */
class LostLockKeyTests {

	/**
	 * The window within which Redis must have confirmed the owner token of a lock that
	 * passes between threads of one client.
	 */
	private static final long WINDOW_MS = dev.distlock.redis.cohort.LocalCohort.CONFIRMATION_WINDOW.toMillis();

	private static final long BODY_MS = 20;

	/** Slack for the scheduling of threads on a shared machine, in ms. */
	private static final long SLACK_MS = 50;

	private static RedisNode redis;

	private static LockApps apps;

	private static LockClient clientB;

	private ConfigurableApplicationContext contextA;

	private LockClient clientA;

	private LeaseLostRecorder lostA;

	@BeforeAll
	static void start() {
		redis = RedisNode.start(Persistence.NONE);
		apps = new LockApps();
		clientB = apps.client(redis.port(), "spring.data.redis.timeout=2s");
	}

	@AfterAll
	static void stop() {
		apps.close();
		redis.close();
	}

	@BeforeEach
	void startA() {
		this.contextA = FaultApplication.start(LockApps.properties(redis.port(), "spring.data.redis.timeout=2s"),
				LeaseLostRecorder.class);
		this.clientA = this.contextA.getBean(LockClient.class);
		this.lostA = this.contextA.getBean(LeaseLostRecorder.class);
	}

	@AfterEach
	void stopA() {
		this.contextA.close();
		Resp.call(redis.port(), "CONFIG", "SET", "maxmemory", "0");
		Resp.call(redis.port(), "CONFIG", "SET", "maxmemory-policy", "noeviction");
		Resp.call(redis.port(), "CONFIG", "SET", "maxmemory-samples", "5");
		Resp.call(redis.port(), "FLUSHALL");
	}

	@Test
	void keyDeletedWhileThreadsOfAClientPassItStopsThePassesWithinTheWindow() {
		String key = "lock:lost:" + UUID.randomUUID();
		Run run = lose(key, () -> Resp.call(redis.port(), "DEL", key));
		run.record("lost key, DEL");
		run.assertGuarantees();
	}

	@Test
	void keyEvictedUnderVolatileTtlWhileThreadsOfAClientPassItStopsThePassesWithinTheWindow() {
		String key = "lock:lost:" + UUID.randomUUID();
		try (RespConnection connection = Resp.connect(redis.port())) {
			long limit = memory(connection, "used_memory") + 2 * 1024 * 1024;
			connection.call("CONFIG", "SET", "maxmemory", String.valueOf(limit));
			connection.call("CONFIG", "SET", "maxmemory-policy", "volatile-ttl");
			// Redis evicts the key of shortest TTL among a sample of keys (5 by default):
			// in a database this small, a sample of 64 sees every key, so the run does
			// not depend on whether the lock key happened to be sampled.
			connection.call("CONFIG", "SET", "maxmemory-samples", "64");
			// Data of the application with a TTL of an hour: the lock key's TTL is
			// shorter, so it is evicted first.
			String hundredKb = "y".repeat(100 * 1024);
			for (int i = 0; i < 6; i++) {
				connection.call("SET", "cache:" + i, hundredKb, "EX", "3600");
			}
			long evictedBefore = stat(connection, "evicted_keys");
			long[] pressedTo = new long[1];
			Run run = lose(key, () -> {
				// Memory runs short: the limit falls 50 KB below what is used, and Redis
				// evicts at once, then the limit is raised again.
				pressedTo[0] = memory(connection, "used_memory") - 50 * 1024;
				connection.call("CONFIG", "SET", "maxmemory", String.valueOf(pressedTo[0]));
				connection.call("EXISTS", key);
				connection.call("CONFIG", "SET", "maxmemory", String.valueOf(limit));
			});
			long evicted = stat(connection, "evicted_keys") - evictedBefore;
			run.record(String.format("lost key, evicted (volatile-ttl, maxmemory lowered to %d KB, %d keys evicted)",
					pressedTo[0] / 1024, evicted));
			assertThat(run.keyGoneAfterFault).as("lock key evicted").isTrue();
			assertThat(run.toldAt - run.faultStart).as("A told of no loss before the fault").isPositive();
			run.assertGuarantees();
		}
	}

	@Test
	void controlAHoldThatIsNotPassedOnOverlapsTheNextHolderUntilItsRelease() {
		String key = "lock:lost:" + UUID.randomUUID();
		LockHandle held = this.clientA.lock(key, LockOptions.renewing(Duration.ZERO));
		// A holder that got its fencing token with the lock (see the scenario below for
		// one that asks only after the loss).
		long heldToken = held.fencingToken();
		long start = System.nanoTime();
		Pause.millis(100);
		Resp.call(redis.port(), "DEL", key);
		long deleted = System.nanoTime();
		LockHandle other = clientB.lock(key, LockOptions.renewing(Duration.ofSeconds(2)));
		long granted = System.nanoTime();
		boolean lostWhenGranted = held.isLeaseLost();
		Pause.millis(300);
		boolean lostLater = held.isLeaseLost();
		other.release();
		long bEnd = System.nanoTime();
		boolean toldAtRelease;
		try {
			held.release();
			toldAtRelease = false;
		}
		catch (RuntimeException ex) {
			toldAtRelease = true;
		}
		Figures.record("lost key control",
				"one hold of A, not passed on; DEL at %d ms; B granted %d ms after the DEL with token %s A's; "
						+ "A's isLeaseLost() when B was granted: %s, 300 ms later: %s; told at its release: %s; "
						+ "overlap with B: %d ms",
				TimeUnit.NANOSECONDS.toMillis(deleted - start), TimeUnit.NANOSECONDS.toMillis(granted - deleted),
				(other.fencingToken() > heldToken) ? "above" : "NOT above", lostWhenGranted, lostLater, toldAtRelease,
				TimeUnit.NANOSECONDS.toMillis(bEnd - granted));
		assertThat(lostWhenGranted).as("A believed it held the lock when B was granted it").isFalse();
		assertThat(other.fencingToken()).isGreaterThan(heldToken);
	}

	/**
	 * Issue 26, item 1: a lock acquired with a plain {@code SET NX PX} is issued its
	 * fencing token only when its holder first asks, and only while the key holds the
	 * holder's owner token. Here the key is deleted while A holds it without a token, B
	 * is granted the lock and writes to a fenced resource, then A (which still believes
	 * it holds the lock) asks for its token to write: it gets
	 * {@code LockLeaseLostException}, the client is told of the loss, and B's write
	 * stays. The control issues A a token as the same formula would without the owner
	 * check: it comes out above B's, and the fenced resource takes A's stale write over
	 * B's.
	 */
	@Test
	void aHolderThatAsksForItsTokenOnlyAfterItsKeyWasLostIsIssuedNone() {
		String key = "lock:lost:" + UUID.randomUUID();
		// A client's first acquisition runs the acquire script, which grants the token
		// with
		// the lock; later ones of a free lock are a plain SET NX PX.
		this.clientA.lock("lock:lost:first:" + UUID.randomUUID(), LockOptions.renewing(Duration.ZERO)).release();
		LockHandle held = this.clientA.lock(key, LockOptions.renewing(Duration.ZERO).withName("asks-late"));
		Resp.call(redis.port(), "DEL", key);
		LockHandle other = clientB.lock(key, LockOptions.renewing(Duration.ofSeconds(2)).withName("asks-late"));
		// The register is on the same server, apart from the lock key, which is all the
		// fault (a DEL) touches.
		try (FencedResource resource = new FencedResource(redis.port())) {
			long otherToken = other.fencingToken();
			boolean written = resource.writeFenced("fenced:" + key, otherToken, "B");
			boolean believedHeld = !held.isLeaseLost();
			long asked = System.nanoTime();
			String outcome;
			try {
				long token = held.fencingToken();
				outcome = "issued " + token
						+ ((resource.writeFenced("fenced:" + key, token, "A")) ? ", written" : ", refused");
			}
			catch (RuntimeException ex) {
				outcome = ex.getClass().getSimpleName();
			}
			long toldMs = TimeUnit.NANOSECONDS.toMillis(this.lostA.lostAt(key) - asked);
			// The control: the token A would get without the owner check.
			long unchecked = (Long) Resp.call(redis.port(), "EVAL", UNCHECKED_TOKEN, "1",
					new LockKeyspace("", false, 1000).fenceKey(key));
			boolean controlWritten = resource.writeFenced("fenced:" + key, unchecked, "A");
			Figures.record("lost key, token asked after the loss",
					"A held a lock acquired with SET NX PX, without a token; DEL; B granted (token %d, its write %s); "
							+ "A, believing it still held the lock (%s), asked for its token: %s; A told lost %d ms "
							+ "after asking; control without the owner check: token %d (%s B's), A's stale write %s",
					otherToken, written ? "taken" : "refused", believedHeld, outcome, toldMs, unchecked,
					(unchecked > otherToken) ? "above" : "NOT above", controlWritten ? "taken over B's" : "refused");
			assertThat(believedHeld).as("A believed it held the lock").isTrue();
			assertThat(outcome).as("A's request for a token").isEqualTo("LockLeaseLostException");
			assertThat(held.isLeaseLost()).as("A knows it lost the lock").isTrue();
			assertThat(this.lostA.lostAt(key)).as("A's leaseLost event").isPositive();
			assertThat(unchecked).as("control: the token without the owner check").isGreaterThan(otherToken);
			assertThat(controlWritten).as("control: the fenced resource takes the stale write").isTrue();
		}
		finally {
			other.release();
		}
	}

	/** The token formula of fence.lua without its owner check. */
	private static final String UNCHECKED_TOKEN = """
			local counter = tonumber(redis.call('get', KEYS[1]) or '0')
			local time = redis.call('time')
			local token = math.max(counter + 1, tonumber(time[1]) * 1000000 + tonumber(time[2]))
			redis.call('set', KEYS[1], string.format('%d', token))
			return token
			""";

	/**
	 * Runs four threads of A passing the key among themselves, applies the fault right
	 * after A took the key in Redis for a new block of passes, then has B hold the key in
	 * a loop too.
	 */
	private Run lose(String key, Runnable fault) {
		List<Body> bodiesA = new CopyOnWriteArrayList<>();
		List<Body> bodiesB = new CopyOnWriteArrayList<>();
		AtomicBoolean running = new AtomicBoolean(true);
		List<Thread> threads = new ArrayList<>();
		for (int t = 0; t < 4; t++) {
			threads.add(contend("A-" + t, this.clientA, key, bodiesA, running));
		}
		Pause.millis(500);
		Body blockStart = awaitBlockStart(bodiesA);
		long faultStart = System.nanoTime();
		fault.run();
		long lost = System.nanoTime();
		boolean keyGone = Resp.number(redis.port(), "EXISTS", key) == 0;
		threads.add(contend("B", clientB, key, bodiesB, running));
		Pause.millis(1500);
		running.set(false);
		threads.forEach(LostLockKeyTests::join);
		return new Run(blockStart, faultStart, lost, keyGone, List.copyOf(bodiesA), List.copyOf(bodiesB),
				this.lostA.lostAt(key));
	}

	/**
	 * Waits for a body of A whose fencing token does not follow the one before: A took
	 * the key in Redis again, and the threads are about to pass it with a new block of
	 * tokens.
	 */
	private static Body awaitBlockStart(List<Body> bodies) {
		long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
		int seen = bodies.size();
		while (System.nanoTime() - deadline < 0) {
			List<Body> now = List.copyOf(bodies);
			for (int i = Math.max(seen, 1); i < now.size(); i++) {
				if (now.get(i).token != now.get(i - 1).token + 1) {
					return now.get(i);
				}
			}
			seen = now.size();
			Thread.onSpinWait();
		}
		throw new IllegalStateException("A never took the key in Redis again");
	}

	private static Thread contend(String name, LockClient client, String key, List<Body> bodies,
			AtomicBoolean running) {
		Thread thread = new Thread(() -> {
			while (running.get()) {
				try (LockHandle handle = client.lock(key, LockOptions.renewing(Duration.ofSeconds(5)))) {
					long start = System.nanoTime();
					boolean lostAtStart = handle.isLeaseLost();
					int index;
					synchronized (bodies) {
						bodies.add(new Body(name, start, 0, handle.fencingToken(), lostAtStart));
						index = bodies.size() - 1;
					}
					Pause.until(start + TimeUnit.MILLISECONDS.toNanos(BODY_MS));
					bodies.set(index, new Body(name, start, System.nanoTime(), handle.fencingToken(), lostAtStart));
				}
				catch (RuntimeException ex) {
					// LockLeaseLostException at release, or not acquired: try again.
				}
			}
		}, "lost-key-" + name);
		thread.start();
		return thread;
	}

	private static void join(Thread thread) {
		try {
			thread.join(20_000);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	private static long memory(RespConnection connection, String field) {
		return info(connection, "memory", field);
	}

	private static long stat(RespConnection connection, String field) {
		return info(connection, "stats", field);
	}

	private static long info(RespConnection connection, String section, String field) {
		String info = String.valueOf(connection.call("INFO", section));
		Matcher matcher = Pattern.compile("(?m)^" + field + ":(\\d+)").matcher(info);
		if (!matcher.find()) {
			throw new IllegalStateException("No " + field + " in INFO " + section);
		}
		return Long.parseLong(matcher.group(1));
	}

	/**
	 * One locked body.
	 *
	 * @param holder the thread
	 * @param start when it started, by {@link System#nanoTime()}
	 * @param end when it ended, 0 if it was still running
	 * @param token its fencing token
	 * @param lostAtStart whether {@code isLeaseLost()} was true when it started
	 */
	record Body(String holder, long start, long end, long token, boolean lostAtStart) {

		boolean overlaps(Body other) {
			long thisEnd = (this.end != 0) ? this.end : Long.MAX_VALUE;
			long otherEnd = (other.end != 0) ? other.end : Long.MAX_VALUE;
			return this.start < otherEnd && other.start < thisEnd;
		}

	}

	/** What one run saw. */
	private record Run(Body blockStart, long faultStart, long lost, boolean keyGoneAfterFault, List<Body> bodiesA,
			List<Body> bodiesB, long toldAt) {

		long firstGrantB() {
			return this.bodiesB.stream().mapToLong(Body::start).min().orElse(Long.MAX_VALUE);
		}

		long firstTokenB() {
			return this.bodiesB.stream().min(Comparator.comparingLong(Body::start)).map(Body::token).orElse(0L);
		}

		/**
		 * The last fencing token of the lost hold that a body of A took: the tokens of
		 * the block A's grant reserved follow each other from the block's start as the
		 * lock passes between A's threads, and end where a pass stopped (a baton not
		 * taken leaves a gap after which the lost hold has no body); a later grant of A
		 * in Redis, once A learned of the loss, starts a block of its own above the lost
		 * one. A body that took the token after the last of the block would be counted
		 * too, as if the lost hold had gone on.
		 */
		long lastTokenOfTheLostHold() {
			long last = this.blockStart.token;
			List<Long> tokens = this.bodiesA.stream()
				.map(Body::token)
				.filter((token) -> token > last)
				.sorted()
				.toList();
			long end = last;
			for (long token : tokens) {
				if (token != end + 1) {
					break;
				}
				end = token;
			}
			return end;
		}

		/**
		 * When A was first granted the key in Redis again after the loss: its first body
		 * with a token above the lost hold's, or -1 if none.
		 */
		long regrantedA() {
			long lastLost = lastTokenOfTheLostHold();
			return this.bodiesA.stream()
				.filter((body) -> body.token > lastLost)
				.mapToLong(Body::start)
				.min()
				.orElse(-1);
		}

		/**
		 * Bodies of A that started after the loss with a token of the lost hold (from the
		 * block's start to {@link #lastTokenOfTheLostHold()}, below B's first) and a
		 * lease A believed it still held. Bodies of a hold A was granted in Redis again
		 * after the loss hold the lock: B, asking later, waits for them in Redis.
		 */
		List<Body> staleBodies() {
			long firstTokenB = firstTokenB();
			long lastLost = lastTokenOfTheLostHold();
			return this.bodiesA.stream()
				.filter((body) -> body.start > this.faultStart && body.token >= this.blockStart.token
						&& body.token <= lastLost && body.token < firstTokenB && !body.lostAtStart)
				.toList();
		}

		long ms(long from, long to) {
			return TimeUnit.NANOSECONDS.toMillis(to - from);
		}

		void record(String scenario) {
			List<Body> stale = staleBodies();
			long afterB = stale.stream().filter((body) -> body.start > firstGrantB()).count();
			long overlapping = stale.stream().filter((body) -> this.bodiesB.stream().anyMatch(body::overlaps)).count();
			long lastStale = stale.stream().mapToLong(Body::start).max().orElse(this.lost);
			long maxTokenA = this.bodiesA.stream()
				.filter((body) -> body.start < firstGrantB())
				.mapToLong(Body::token)
				.max()
				.orElse(0);
			Figures.record(scenario, "4 threads of A passing the key, %d ms bodies, fault %d ms after A took it "
					+ "in Redis; B granted %d ms after the loss; %d bodies of A started after the loss with a token "
					+ "of the lost hold and isLeaseLost() false (%d of them after B's grant, %d overlapping B's "
					+ "holds), the last %d ms after the loss; A told %s; A granted in Redis again %s; B's first "
					+ "token %s A's last (%d > %d); holds: A %d, B %d", BODY_MS,
					ms(this.blockStart.start, this.faultStart), ms(this.lost, firstGrantB()), stale.size(), afterB,
					overlapping, ms(this.lost, lastStale),
					(this.toldAt < 0) ? "never" : ms(this.lost, this.toldAt) + " ms after the loss",
					(regrantedA() < 0) ? "never" : ms(this.lost, regrantedA()) + " ms after the loss",
					(firstTokenB() > maxTokenA) ? "above" : "NOT above", firstTokenB(), maxTokenA, this.bodiesA.size(),
					this.bodiesB.size());
		}

		void assertGuarantees() {
			assertThat(this.bodiesB).as("B's holds").isNotEmpty();
			assertThat(this.staleBodies())
				.as("bodies of A with a token of the lost hold, started more than the " + "window after the loss")
				.allMatch((body) -> ms(this.lost, body.start) <= WINDOW_MS + SLACK_MS);
			assertThat(this.toldAt).as("A told of the loss").isPositive();
			assertThat(ms(this.lost, this.toldAt)).as("ms from the loss until A was told")
				.isLessThanOrEqualTo(WINDOW_MS + BODY_MS + SLACK_MS);
			long maxTokenA = this.bodiesA.stream()
				.filter((body) -> body.start < firstGrantB())
				.mapToLong(Body::token)
				.max()
				.orElse(0);
			assertThat(firstTokenB()).as("B's first fencing token").isGreaterThan(maxTokenA);
		}

	}

}
