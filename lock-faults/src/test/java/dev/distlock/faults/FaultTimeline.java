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

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.IntervalBarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultIntervalCategoryDataset;

/**
 * What each party of a fault scenario believed or held, on one time line in milliseconds
 * from the fault: a scenario adds an interval per party and run (for example the time the
 * holder believed it held the lock, the life of its key on the server, and the hold of
 * the instance that took the lock next) before it asserts, and {@link #write(Path)} draws
 * them as a chart with JFreeChart ({@code <name>.png}) and keeps the figures beside it
 * ({@code <name>.csv}), in {@code target/fault-charts} as {@link Figures} keeps its lines
 * in {@code target/fault-figures.txt}. Runs whose name starts with {@code control} come
 * last.
 */
final class FaultTimeline {

	static final Path DIRECTORY = Path.of("target", "fault-charts");

	static final int WIDTH = 1000;

	private static final Color[] PAINTS = { new Color(0x9e9e9e), new Color(0x1f77b4), new Color(0xd62728),
			new Color(0x2ca02c) };

	private final String name;

	private final String title;

	private final String zero;

	private final List<String> parties;

	private final List<Interval> intervals = new ArrayList<>();

	/**
	 * A time line.
	 * @param name the files' name, without extension
	 * @param title the chart's title
	 * @param zero what happened at 0 ms, such as {@code "blackhole begins"}
	 * @param parties the parties, in the order of their bars and legend
	 */
	FaultTimeline(String name, String title, String zero, String... parties) {
		this.name = name;
		this.title = title;
		this.zero = zero;
		this.parties = List.of(parties);
	}

	/**
	 * Adds an interval.
	 * @param run the run (a category of the chart), such as {@code "fixed 3 s lease"}
	 * @param party one of the parties
	 * @param zeroNanos when the fault began, in {@link System#nanoTime()}
	 * @param startNanos when the interval began
	 * @param endNanos when it ended
	 * @return this time line
	 */
	synchronized FaultTimeline add(String run, String party, long zeroNanos, long startNanos, long endNanos) {
		if (!this.parties.contains(party)) {
			throw new IllegalArgumentException(
					"Unknown party '" + party + "' of time line " + this.name + ": one of " + this.parties);
		}
		this.intervals.add(new Interval(run, party, (startNanos - zeroNanos) / 1e6, (endNanos - zeroNanos) / 1e6));
		return this;
	}

	/**
	 * The runs, controls last, each in the order of its first interval otherwise.
	 * @return the runs
	 */
	synchronized List<String> runs() {
		return this.intervals.stream()
			.map(Interval::run)
			.distinct()
			.sorted(Comparator.comparing((String run) -> run.startsWith("control")))
			.toList();
	}

	/**
	 * The intervals as a dataset: one series per party, one category per run, in ms from
	 * the fault; a party without an interval in a run has none there.
	 * @return the dataset
	 */
	synchronized DefaultIntervalCategoryDataset dataset() {
		List<String> runs = runs();
		Number[][] starts = new Number[this.parties.size()][runs.size()];
		Number[][] ends = new Number[this.parties.size()][runs.size()];
		for (Interval interval : this.intervals) {
			int party = this.parties.indexOf(interval.party());
			int run = runs.indexOf(interval.run());
			starts[party][run] = interval.startMs();
			ends[party][run] = interval.endMs();
		}
		return new DefaultIntervalCategoryDataset(this.parties.toArray(new String[0]), runs.toArray(new String[0]),
				starts, ends);
	}

	/**
	 * The chart of the intervals.
	 * @return the chart
	 */
	JFreeChart chart() {
		DefaultIntervalCategoryDataset dataset = dataset();
		CategoryAxis runs = new CategoryAxis(null);
		runs.setMaximumCategoryLabelWidthRatio(0.3f);
		runs.setCategoryMargin(0.3);
		NumberAxis time = new NumberAxis("ms from the fault (" + this.zero + " at 0)");
		IntervalBarRenderer renderer = new IntervalBarRenderer();
		renderer.setBarPainter(new StandardBarPainter());
		renderer.setShadowVisible(false);
		renderer.setItemMargin(0.08);
		for (int i = 0; i < PAINTS.length; i++) {
			renderer.setSeriesPaint(i, PAINTS[i]);
		}
		CategoryPlot plot = new CategoryPlot(dataset, runs, time, renderer);
		plot.setOrientation(PlotOrientation.HORIZONTAL);
		plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
		ValueMarker fault = new ValueMarker(0, Color.BLACK,
				new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] { 6, 4 }, 0));
		fault.setLabel(this.zero);
		fault.setLabelFont(new Font(Font.SANS_SERIF, Font.ITALIC, 11));
		fault.setLabelAnchor(RectangleAnchor.TOP_RIGHT);
		fault.setLabelTextAnchor(TextAnchor.TOP_LEFT);
		plot.addRangeMarker(fault);
		JFreeChart chart = new JFreeChart(this.title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
		chart.addSubtitle(new TextTitle("one bar per party and run; each run's times from its own fault",
				new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
		chart.setBackgroundPaint(Color.WHITE);
		chart.setPadding(new RectangleInsets(6, 6, 6, 30));
		return chart;
	}

	/**
	 * Writes {@code <name>.png} and {@code <name>.csv}.
	 * @param directory where to write them
	 * @return the chart's file
	 */
	synchronized Path write(Path directory) {
		try {
			Files.createDirectories(directory);
			StringBuilder csv = new StringBuilder("run,party,start ms,end ms\n");
			for (Interval interval : this.intervals) {
				csv.append(String.format(Locale.ROOT, "\"%s\",\"%s\",%.1f,%.1f%n", interval.run(), interval.party(),
						interval.startMs(), interval.endMs()));
			}
			Files.writeString(directory.resolve(this.name + ".csv"), csv, StandardCharsets.UTF_8);
			Path png = directory.resolve(this.name + ".png");
			int height = Math.max(360, 170 + runs().size() * (this.parties.size() * 18 + 24));
			ChartUtils.saveChartAsPNG(png.toFile(), chart(), WIDTH, height);
			return png;
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Could not write the time line " + this.name + " to " + directory, ex);
		}
	}

	private record Interval(String run, String party, double startMs, double endMs) {
	}

}
