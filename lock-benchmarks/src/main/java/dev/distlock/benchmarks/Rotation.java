package dev.distlock.benchmarks;

import java.util.ArrayList;
import java.util.List;

/**
 * The order of contenders in one round of blocks: the table order rotated by the round
 * number, so that every contender runs early and late in a round and machine drift hits
 * all of them.
 */
final class Rotation {

	private Rotation() {
	}

	static <T> List<T> forRound(List<T> items, int round) {
		List<T> rotated = new ArrayList<>(items.size());
		for (int i = 0; i < items.size(); i++) {
			rotated.add(items.get((i + round) % items.size()));
		}
		return rotated;
	}

}
