package dev.distlock.benchmarks;

import java.util.List;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What a run measured, scenario by scenario; {@code null} for scenarios that did not run.
 */
final class BenchReport {

	@Nullable String environment;

	@Nullable List<UncontendedScenario.Result> uncontended;

	@Nullable List<HandOverStats> contended;

	@Nullable List<ManyKeysScenario.Result> manyKeys;

	@Nullable List<Map<String, String>> held;

}
