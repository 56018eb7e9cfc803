package dev.distlock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Hold intervals collected from every JVM of a scenario, and the counts that tell whether
 * the lock excluded: overlapping bodies, fencing tokens out of order or shared.
 */
public final class HoldLog {

	private final List<Hold> holds = new ArrayList<>();

	/**
	 * Adds the holds a worker wrote to a file.
	 * @param holder the worker
	 * @param file its hold file
	 * @return this log
	 */
	public HoldLog read(String holder, Path file) {
		try {
			Files.readAllLines(file)
				.stream()
				.filter((line) -> !line.isBlank())
				.forEach((line) -> this.holds.add(Hold.parse(holder, line)));
			return this;
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * Adds one hold.
	 * @param hold the hold
	 * @return this log
	 */
	public HoldLog add(Hold hold) {
		this.holds.add(hold);
		return this;
	}

	/**
	 * The holds so far.
	 * @return the holds
	 */
	public List<Hold> holds() {
		return List.copyOf(this.holds);
	}

	/**
	 * Counts holds that overlap an earlier-started hold, by any holder.
	 * @return the number of overlapping holds
	 */
	public int overlaps() {
		List<Hold> byStart = new ArrayList<>(this.holds);
		byStart.sort(Comparator.comparingLong(Hold::start));
		int overlaps = 0;
		long latestEnd = Long.MIN_VALUE;
		boolean first = true;
		for (Hold hold : byStart) {
			if (!first && hold.start() < latestEnd) {
				overlaps++;
			}
			latestEnd = first ? hold.end() : Math.max(latestEnd, hold.end());
			first = false;
		}
		return overlaps;
	}

	/**
	 * Counts holds whose token is not greater than the token of a hold that started
	 * before them.
	 * @return the number of tokens out of order
	 */
	public int tokensNotIncreasing() {
		return TokenOrder.notGreaterThanEarlier(
				this.holds.stream().sorted(Comparator.comparingLong(Hold::start)).mapToLong(Hold::token).toArray());
	}

	/**
	 * Counts holds that share their token with another hold.
	 * @return the number of holds beyond the first with each token
	 */
	public int duplicateTokens() {
		Map<Long, Integer> counts = new HashMap<>();
		this.holds.forEach((hold) -> counts.merge(hold.token(), 1, Integer::sum));
		return counts.values().stream().mapToInt((count) -> count - 1).sum();
	}

}
