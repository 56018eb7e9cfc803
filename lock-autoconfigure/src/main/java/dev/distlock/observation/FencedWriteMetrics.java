package dev.distlock.observation;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.distlock.fencing.FencedWriteListener;
import dev.distlock.fencing.StaleFencingTokenException;

/**
 * Counts the fenced writes that stores refused, in the counter {@value #REFUSED}, tagged
 * with the logical {@code name} of the lock the write was made under and the
 * {@code store} that refused it ({@code jdbc}, {@code redis}).
 */
public class FencedWriteMetrics implements FencedWriteListener {

	/** Name of the counter of refused fenced writes. */
	public static final String REFUSED = "distlock.fencing.refused";

	private final MeterRegistry registry;

	/**
	 * Creates the meters in a registry.
	 * @param registry the registry to count in
	 */
	public FencedWriteMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	@Override
	public void refused(StaleFencingTokenException refusal) {
		Counter.builder(REFUSED)
			.description("Fenced writes refused because a later holder of the lock had written")
			.tag(LockMetrics.NAME, refusal.getLockName())
			.tag("store", refusal.getStore())
			.register(this.registry)
			.increment();
	}

}
