package dev.distlock.benchmarks;

import java.util.List;
import java.util.SplittableRandom;

import dev.distlock.benchmarks.SharedLockContender.Access;

/**
 * The two scenarios of {@code ./bench/run kinds}, with the contenders each measures (by
 * {@link KindsContenderSet} id, in table order) and what each of their operations takes.
 */
enum SharedLoad {

	/**
	 * One key; each operation reads with the probability {@link KindsSizes#readShare()},
	 * else writes.
	 */
	READ_MOSTLY("read-mostly", List.of(KindsContenderSet.DISTLOCK, KindsContenderSet.REDISSON_READ_WRITE)) {

		@Override
		Access next(SplittableRandom random, double readShare) {
			return (random.nextDouble() < readShare) ? Access.READ : Access.WRITE;
		}

	},

	/**
	 * One semaphore; each operation takes one of its {@link KindsSizes#permits()}.
	 */
	PERMITS("permits", List.of(KindsContenderSet.DISTLOCK, KindsContenderSet.REDISSON_SEMAPHORE,
			KindsContenderSet.REDISSON_EXPIRABLE_SEMAPHORE)) {

		@Override
		Access next(SplittableRandom random, double readShare) {
			return Access.PERMIT;
		}

	};

	private final String id;

	private final List<String> contenders;

	SharedLoad(String id, List<String> contenders) {
		this.id = id;
		this.contenders = contenders;
	}

	/**
	 * Returns the scenario's name in keys, commands and the usage text.
	 * @return the id
	 */
	String id() {
		return this.id;
	}

	/**
	 * Returns the contenders the scenario measures.
	 * @return their ids, in table order
	 */
	List<String> contenders() {
		return this.contenders;
	}

	/**
	 * Picks what the next operation of a thread takes.
	 * @param random the thread's random numbers
	 * @param readShare the probability of a read, where there are reads
	 * @return the access
	 */
	abstract Access next(SplittableRandom random, double readShare);

	static SharedLoad of(String id) {
		for (SharedLoad load : values()) {
			if (load.id.equals(id)) {
				return load;
			}
		}
		throw new IllegalArgumentException("No scenario " + id);
	}

}
