package dev.distlock.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import org.HdrHistogram.Histogram;

import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * What the holds of one contender's blocks in a kinds scenario show, accumulated over the
 * blocks: operations and their rate, acquire latency per access, and the checks made
 * while measuring. The holds of all processes are swept in time order (the workers'
 * {@link System#nanoTime} is the host's {@code CLOCK_MONOTONIC}): a hold that starts
 * while a hold it excludes is in progress is a violation (a reader while a writer holds,
 * a writer while anyone holds, a permit while all permits are held). Each hold is
 * recorded inside the lock, so a sweep of a correct lock finds none.
 */
final class SharedHoldStats {

	/**
	 * One hold, as recorded by a worker thread.
	 *
	 * @param holder worker and thread, as {@code w<worker>-t<thread>}
	 * @param access what it took
	 * @param requested when it asked for the lock
	 * @param acquired when it got the lock
	 * @param end when its work under the lock ended
	 * @param torn whether a reader saw the counter change during its hold
	 */
	record Hold(String holder, Access access, long requested, long acquired, long end, boolean torn) {
	}

	private final String contender;

	private final int permits;

	private final Map<Access, Histogram> latencies = new EnumMap<>(Access.class);

	private final Map<String, Long> opsByHolder = new TreeMap<>();

	private long spanNanos;

	private long heldNanos;

	private long violations;

	private int maxHolders;

	private int maxReaders;

	private long tornReads;

	private long lostIncrements;

	SharedHoldStats(String contender, int permits) {
		this.contender = contender;
		this.permits = permits;
	}

	/**
	 * Counts a thread even if it never gets the lock, for the fewest operations per
	 * thread.
	 * @param holder the thread
	 */
	void registerHolder(String holder) {
		this.opsByHolder.putIfAbsent(holder, 0L);
	}

	/**
	 * Adds one block.
	 * @param block the holds of every thread of every worker
	 * @param counter the counter the writers incremented, which started at 0
	 */
	void add(List<Hold> block, long counter) {
		if (block.isEmpty()) {
			return;
		}
		long first = Long.MAX_VALUE;
		long last = Long.MIN_VALUE;
		long writes = 0;
		for (Hold hold : block) {
			this.latencies.computeIfAbsent(hold.access(), (access) -> new Histogram(3))
				.recordValue(hold.acquired() - hold.requested());
			this.opsByHolder.merge(hold.holder(), 1L, Long::sum);
			this.heldNanos += hold.end() - hold.acquired();
			first = Math.min(first, hold.requested());
			last = Math.max(last, hold.end());
			writes += (hold.access() == Access.WRITE) ? 1 : 0;
			this.tornReads += hold.torn() ? 1 : 0;
		}
		this.spanNanos += last - first;
		this.lostIncrements += writes - counter;
		sweep(block);
	}

	private void sweep(List<Hold> block) {
		List<long[]> events = new ArrayList<>(block.size() * 2);
		for (Hold hold : block) {
			// time, 0 for an end (ends go first at the same time), 1 for a start; access
			events.add(new long[] { hold.acquired(), 1, hold.access().ordinal() });
			events.add(new long[] { hold.end(), 0, hold.access().ordinal() });
		}
		events.sort(Comparator.<long[]>comparingLong((event) -> event[0]).thenComparingLong((event) -> event[1]));
		int[] holding = new int[Access.values().length];
		for (long[] event : events) {
			Access access = Access.values()[(int) event[2]];
			if (event[1] == 0) {
				holding[access.ordinal()]--;
				continue;
			}
			int readers = holding[Access.READ.ordinal()];
			int writers = holding[Access.WRITE.ordinal()];
			int permitHolders = holding[Access.PERMIT.ordinal()];
			boolean excluded = switch (access) {
				case READ -> writers > 0;
				case WRITE -> readers + writers > 0;
				case PERMIT -> permitHolders >= this.permits;
			};
			this.violations += excluded ? 1 : 0;
			holding[access.ordinal()]++;
			this.maxHolders = Math.max(this.maxHolders, readers + writers + permitHolders + 1);
			this.maxReaders = Math.max(this.maxReaders, holding[Access.READ.ordinal()]);
		}
	}

	String contender() {
		return this.contender;
	}

	long ops() {
		return this.opsByHolder.values().stream().mapToLong(Long::longValue).sum();
	}

	/** Operations per second over the blocks' spans (first request to last end). */
	double opsPerSecond() {
		return (this.spanNanos > 0) ? ops() * 1e9 / this.spanNanos : 0;
	}

	/** Nanoseconds from asking for the lock to getting it, of one access. */
	Histogram latency(Access access) {
		return this.latencies.computeIfAbsent(access, (key) -> new Histogram(3));
	}

	/**
	 * Time held over the blocks' spans, per permit: 1.0 when every permit is always held.
	 */
	double permitsBusy() {
		return (this.spanNanos > 0) ? (double) this.heldNanos / this.spanNanos / this.permits : 0;
	}

	/** Holds that started while a hold they exclude was in progress; must be 0. */
	long violations() {
		return this.violations;
	}

	/** Most holds in progress at once, of any access. */
	int maxHolders() {
		return this.maxHolders;
	}

	/** Most readers in progress at once. */
	int maxReaders() {
		return this.maxReaders;
	}

	/** Reads that saw the counter change while they held the read lock; must be 0. */
	long tornReads() {
		return this.tornReads;
	}

	/** Writes minus the counter's final values; must be 0. */
	long lostIncrements() {
		return this.lostIncrements;
	}

	long minOpsPerHolder() {
		return this.opsByHolder.values().stream().mapToLong(Long::longValue).min().orElse(0);
	}

	long maxOpsPerHolder() {
		return this.opsByHolder.values().stream().mapToLong(Long::longValue).max().orElse(0);
	}

}
