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

package dev.distlock.benchmarks;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Font;
import java.awt.Paint;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.regex.Pattern;

import org.jfree.chart.ChartUtils;
import org.jfree.chart.JFreeChart;
import org.jfree.chart.axis.AxisLocation;
import org.jfree.chart.axis.CategoryAxis;
import org.jfree.chart.axis.LogAxis;
import org.jfree.chart.axis.NumberAxis;
import org.jfree.chart.axis.NumberTickUnit;
import org.jfree.chart.axis.ValueAxis;
import org.jfree.chart.labels.ItemLabelAnchor;
import org.jfree.chart.labels.ItemLabelPosition;
import org.jfree.chart.labels.StandardCategoryItemLabelGenerator;
import org.jfree.chart.plot.CategoryPlot;
import org.jfree.chart.plot.PlotOrientation;
import org.jfree.chart.plot.ValueMarker;
import org.jfree.chart.renderer.category.BarRenderer;
import org.jfree.chart.renderer.category.StandardBarPainter;
import org.jfree.chart.title.TextTitle;
import org.jfree.chart.ui.RectangleAnchor;
import org.jfree.chart.ui.RectangleInsets;
import org.jfree.chart.ui.TextAnchor;
import org.jfree.data.category.DefaultCategoryDataset;
import org.jspecify.annotations.Nullable;

import dev.distlock.benchmarks.BenchmarkResults.Section;
import dev.distlock.benchmarks.BenchmarkResults.Table;

/**
 * Draws the benchmark results as charts, one PNG per scenario, with JFreeChart:
 * {@code BenchmarkCharts <results.md> [<directory>]} reads the Markdown a run printed (or
 * {@code docs/benchmarks.md}, which quotes it) and writes the charts into the directory
 * (the Markdown's own if none is given). {@code ./bench/run} calls it after every run,
 * and {@code ./bench/run charts <results.md> [<directory>]} calls it on results written
 * earlier. The charts are drawn from the tables alone, so a chart never shows a figure
 * the table beside it does not.
 * <ul>
 * <li>{@code uncontended.png}: p50 of acquire + release against the floor (two PINGs),
 * same key and distinct keys.</li>
 * <li>{@code contended-throughput.png}: efficiency and fairness (min/max holds per
 * thread) per contender.</li>
 * <li>{@code contended-gaps.png}: hand-over gaps (p50, mean, p99, across JVMs) against
 * the floor, on a log scale.</li>
 * <li>{@code many-keys.png}: pairs/s per contender against the floor's.</li>
 * <li>{@code held-locks.png}: renewal round trips per 100 locks per 10 s, before and
 * after churn, on a log scale.</li>
 * <li>{@code kinds-read-mostly.png}, {@code kinds-permits.png}: time to the lock per
 * access, with operations per second in the labels.</li>
 * <li>{@code reactive.png}: operations per second per reactive load.</li>
 * <li>{@code redlock-uncontended.png}, {@code redlock-contended.png}: RedLock on 3 and 5
 * nodes against one server, p50 and p99 of acquire + release, and holds per second.</li>
 * <li>{@code handover.png}: the gap of a hand-over from one JVM to another, p50 and p99,
 * against the floor, on a log scale.</li>
 * </ul>
 */
public final class BenchmarkCharts {

	static {
		// Draw off screen: ./bench/run and CI have no display.
		System.setProperty("java.awt.headless", "true");
	}

	static final int WIDTH = 1000;

	private static final Pattern UNCONTENDED = Pattern.compile("1\\. Uncontended");

	private static final Pattern CONTENDED = Pattern.compile("2\\. Contended");

	private static final Pattern MANY_KEYS = Pattern.compile("3\\. Many keys");

	private static final Pattern HELD_LOCKS = Pattern.compile("4\\. Held locks");

	private static final Pattern KINDS_READ_MOSTLY = Pattern.compile("Kinds 1\\. ");

	private static final Pattern KINDS_PERMITS = Pattern.compile("Kinds 2\\. ");

	private static final Pattern REDLOCK_UNCONTENDED = Pattern.compile("RedLock 1\\. ");

	private static final Pattern REDLOCK_CONTENDED = Pattern.compile("RedLock 2\\. ");

	private static final Pattern HAND_OVER = Pattern.compile("Hand-over across processes");

	private static final Pattern HAND_OVER_FLOOR = Pattern.compile("Floor: 2×PING p50 [^,]*, ([0-9][0-9.,]*) µs");

	private static final Pattern CONTENDED_FLOOR = Pattern.compile("Floor for the gap ratio:.*?([0-9][0-9.,]*) µs");

	private static final String CONTENDER = "contender";

	private static final String FLOOR = "floor";

	private static final Paint[] SERIES_PAINTS = { new Color(0x1f77b4), new Color(0xff7f0e), new Color(0x2ca02c),
			new Color(0xd62728), new Color(0x9467bd) };

	private BenchmarkCharts() {
	}

	/**
	 * Writes the charts of a results file.
	 * @param args the Markdown results, then the directory to write into (the results'
	 * own if omitted)
	 * @throws IOException if a file cannot be read or written
	 */
	public static void main(String[] args) throws IOException {
		if (args.length < 1 || args.length > 2) {
			System.err.println("Usage: BenchmarkCharts <results.md> [<directory>]");
			System.exit(2);
		}
		Path markdown = Path.of(args[0]);
		Path directory = (args.length > 1) ? Path.of(args[1]) : markdown.toAbsolutePath().getParent();
		if (!Files.isRegularFile(markdown)) {
			System.err.println("No results file " + markdown.toAbsolutePath()
					+ ": give the report.md of a run (or docs/benchmarks.md), relative to the repository root");
			System.exit(1);
		}
		try {
			write(markdown, directory).forEach((path) -> System.err.println("Chart: " + path));
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.exit(1);
		}
	}

	/**
	 * Writes a PNG per scenario found in a results file.
	 * @param markdown the results, as {@code ./bench/run} prints them
	 * @param directory where to write the charts
	 * @return the files written
	 * @throws IOException if a file cannot be read or written
	 * @throws IllegalArgumentException if the file has no benchmark table
	 */
	static List<Path> write(Path markdown, Path directory) throws IOException {
		BenchmarkResults results = BenchmarkResults.parse(Files.readString(markdown, StandardCharsets.UTF_8));
		List<Chart> charts = charts(results);
		if (charts.isEmpty()) {
			throw new IllegalArgumentException("No benchmark table in " + markdown
					+ ": BenchmarkCharts reads the Markdown ./bench/run prints (headings such as '1. Uncontended', "
					+ "'2. Contended', 'Kinds 1.', 'Reactive 1.', 'RedLock 1.', each followed by its table)");
		}
		Files.createDirectories(directory);
		List<Path> written = new ArrayList<>();
		for (Chart chart : charts) {
			Path file = directory.resolve(chart.fileName());
			ChartUtils.saveChartAsPNG(file.toFile(), chart.chart(), WIDTH, chart.height());
			written.add(file);
		}
		return written;
	}

	/**
	 * The charts of every scenario the results have, in the order of the page.
	 * @param results the results
	 * @return the charts
	 */
	static List<Chart> charts(BenchmarkResults results) {
		List<Chart> charts = new ArrayList<>();
		results.first(UNCONTENDED).map(BenchmarkCharts::uncontended).ifPresent(charts::add);
		Optional<Section> contended = results.first(CONTENDED);
		contended.map(BenchmarkCharts::contendedThroughput).ifPresent(charts::add);
		contended.map(BenchmarkCharts::contendedGaps).ifPresent(charts::add);
		results.first(MANY_KEYS).map(BenchmarkCharts::manyKeys).ifPresent(charts::add);
		results.first(HELD_LOCKS).map(BenchmarkCharts::heldLocks).ifPresent(charts::add);
		results.first(KINDS_READ_MOSTLY).map(BenchmarkCharts::kindsReadMostly).ifPresent(charts::add);
		results.first(KINDS_PERMITS).map(BenchmarkCharts::kindsPermits).ifPresent(charts::add);
		reactive(results).ifPresent(charts::add);
		results.first(REDLOCK_UNCONTENDED).map(BenchmarkCharts::redLockUncontended).ifPresent(charts::add);
		results.first(REDLOCK_CONTENDED).map(BenchmarkCharts::redLockContended).ifPresent(charts::add);
		results.first(HAND_OVER).map(BenchmarkCharts::handOver).ifPresent(charts::add);
		return charts;
	}

	static Chart uncontended(Section section) {
		Table table = section.table();
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		for (List<String> row : table.rows()) {
			String contender = table.cell(row, CONTENDER);
			if (!contender.startsWith(FLOOR)) {
				String keys = table.cell(row, "keys").equals("same") ? "same key every time" : "a new key every time";
				dataset.addValue(table.number(row, "p50 / floor"), keys, contender);
			}
		}
		JFreeChart chart = barChart("Uncontended acquire + release: p50 against the floor", section,
				"p50 ÷ the floor's p50 (two PINGs, same key mode); lower is better", dataset, false, "0.00");
		marker(chart, 1.0, "floor: 2×PING");
		return new Chart("uncontended.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart contendedThroughput(Section section) {
		Table table = section.table();
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		for (List<String> row : table.rows()) {
			String contender = table.cell(row, CONTENDER);
			dataset.addValue(table.number(row, "efficiency"), "efficiency (holds/s × critical section)", contender);
			dataset.addValue(table.number(row, "min/max per thread"), "fairness (fewest ÷ most holds of a thread)",
					contender);
		}
		JFreeChart chart = barChart("Contended, one key: throughput and fairness", section,
				"share (1.0: serial limit; every thread served alike); higher is better", dataset, false, "0.00");
		chart.getCategoryPlot().getRangeAxis().setRange(0, 1.08);
		return new Chart("contended-throughput.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart contendedGaps(Section section) {
		Table table = section.table();
		Map<String, String> series = new LinkedHashMap<>();
		series.put("gap p50 µs", "p50");
		series.put("gap mean µs", "mean");
		series.put("gap p99 µs", "p99");
		if (table.has("gap p50 across JVMs µs")) {
			series.put("gap p50 across JVMs µs", "p50 from one JVM to the other");
		}
		DefaultCategoryDataset dataset = byContender(table, series, (row) -> table.cell(row, CONTENDER));
		JFreeChart chart = barChart("Contended, one key: hand-over gaps", section,
				"µs from one hold's end to the next hold's start (log scale); lower is better", dataset, true, "#,##0");
		section.numberAfter(CONTENDED_FLOOR)
			.ifPresent((floor) -> marker(chart, floor, "floor: 2×PING p50, " + format(floor, "0.0") + " µs"));
		return new Chart("contended-gaps.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart handOver(Section section) {
		Table table = section.table();
		Map<String, String> series = new LinkedHashMap<>();
		series.put("gap p50 µs", "p50");
		series.put("gap p99 µs", "p99");
		DefaultCategoryDataset dataset = byContender(table, series, (row) -> table.cell(row, CONTENDER));
		JFreeChart chart = barChart("Hand-over across processes: release call to the next holder's first line", section,
				"µs (log scale); lower is better", dataset, true, "#,##0");
		section.numberAfter(HAND_OVER_FLOOR)
			.ifPresent((floor) -> marker(chart, floor, "floor: 2×PING p50, " + format(floor, "0.0") + " µs"));
		return new Chart("handover.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart manyKeys(Section section) {
		Table table = section.table();
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		Double floor = null;
		for (List<String> row : table.rows()) {
			String contender = table.cell(row, CONTENDER);
			if (contender.startsWith(FLOOR)) {
				floor = table.number(row, "pairs/s");
			}
			else {
				dataset.addValue(table.number(row, "pairs/s"), "pairs/s", contender);
			}
		}
		JFreeChart chart = barChart("Many keys: throughput", section,
				"acquire + release pairs per second, all threads; higher is better", dataset, false, "#,##0");
		if (floor != null) {
			marker(chart, floor, "floor: 2×PING, " + format(floor, "#,##0") + " pairs/s");
		}
		return new Chart("many-keys.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart heldLocks(Section section) {
		Table table = section.table();
		Map<String, String> series = new LinkedHashMap<>();
		series.put("per 100 locks per 10 s", "while holding");
		series.put("after churn: per 100 locks per 10 s", "after releasing and re-acquiring all, 5 times");
		DefaultCategoryDataset dataset = byContender(table, series, (row) -> table.cell(row, CONTENDER));
		JFreeChart chart = barChart("Held locks: renewal traffic", section,
				"round trips per 100 held locks per 10 s (log scale); lower is better", dataset, true, "0.00");
		marker(chart, 1.0, "1 round trip per 100 locks per renewal period");
		return new Chart("held-locks.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart kindsReadMostly(Section section) {
		Map<String, String> series = new LinkedHashMap<>();
		series.put("read p50 µs", "read p50");
		series.put("read p99 µs", "read p99");
		series.put("write p50 µs", "write p50");
		series.put("write p99 µs", "write p99");
		return kinds("kinds-read-mostly.png", "Read-mostly: time to the lock, reads and writes", section, series);
	}

	static Chart kindsPermits(Section section) {
		Map<String, String> series = new LinkedHashMap<>();
		series.put("p50 µs", "p50");
		series.put("p99 µs", "p99");
		return kinds("kinds-permits.png", "Permits: time to a permit", section, series);
	}

	private static Chart kinds(String fileName, String title, Section section, Map<String, String> series) {
		Table table = section.table();
		DefaultCategoryDataset dataset = byContender(table, series,
				(row) -> table.cell(row, CONTENDER) + " (" + table.cell(row, "ops/s") + " ops/s)");
		// Milliseconds read better than µs at these waits.
		for (Object row : dataset.getRowKeys()) {
			for (Object column : dataset.getColumnKeys()) {
				Number value = dataset.getValue((Comparable<?>) row, (Comparable<?>) column);
				if (value != null) {
					dataset.setValue(value.doubleValue() / 1000, (Comparable<?>) row, (Comparable<?>) column);
				}
			}
		}
		JFreeChart chart = barChart(title, section,
				"ms from asking to holding (log scale; a closed loop: the queue ahead included); lower is better",
				dataset, true, "0.0");
		return new Chart(fileName, chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Optional<Chart> reactive(BenchmarkResults results) {
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		for (int load = 1;; load++) {
			Optional<Section> section = results.first(Pattern.compile("Reactive " + load + "\\. "));
			if (section.isEmpty()) {
				break;
			}
			Table table = section.get().table();
			String loadName = section.get().heading().replaceFirst("^Reactive \\d+\\. ", "");
			for (List<String> row : table.rows()) {
				dataset.addValue(table.number(row, "ops/s"), table.cell(row, CONTENDER), loadName);
			}
		}
		if (dataset.getColumnCount() == 0) {
			return Optional.empty();
		}
		JFreeChart chart = barChart("Reactive: throughput per load", null,
				"operations per second (acquire, work, release); higher is better", dataset, false, "#,##0");
		return Optional.of(new Chart("reactive.png", chart, dataset.getColumnCount(), dataset.getRowCount()));
	}

	static Chart redLockUncontended(Section section) {
		Table table = section.table();
		Map<String, String> series = new LinkedHashMap<>();
		series.put("p50 µs", "p50");
		series.put("p99 µs", "p99");
		DefaultCategoryDataset dataset = byContender(table, series, (row) -> redLockCategory(table, row));
		JFreeChart chart = barChart("RedLock, uncontended: acquire + release", section,
				"µs per acquire + release (log scale); lower is better", dataset, true, "#,##0");
		return new Chart("redlock-uncontended.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	static Chart redLockContended(Section section) {
		Table table = section.table();
		DefaultCategoryDataset dataset = byContender(table, Map.of("holds/s", "holds/s"),
				(row) -> redLockCategory(table, row));
		JFreeChart chart = barChart("RedLock, contended: one key", section,
				"holds per second (1 ms critical section: at most 1,000); higher is better", dataset, false, "#,##0");
		return new Chart("redlock-contended.png", chart, dataset.getColumnCount(), dataset.getRowCount());
	}

	private static String redLockCategory(Table table, List<String> row) {
		String nodes = table.cell(row, "nodes");
		return table.cell(row, CONTENDER).replace(" (one server)", "") + ", " + nodes
				+ (nodes.equals("1") ? " server" : " nodes");
	}

	private static DefaultCategoryDataset byContender(Table table, Map<String, String> series,
			Function<List<String>, String> category) {
		DefaultCategoryDataset dataset = new DefaultCategoryDataset();
		for (List<String> row : table.rows()) {
			String label = category.apply(row);
			series.forEach((column, name) -> dataset.addValue(table.number(row, column), name, label));
		}
		return dataset;
	}

	private static JFreeChart barChart(String title, @Nullable Section section, String valueAxisLabel,
			DefaultCategoryDataset dataset, boolean logScale, String valueFormat) {
		CategoryAxis categoryAxis = new CategoryAxis(null);
		categoryAxis.setMaximumCategoryLabelWidthRatio(0.35f);
		categoryAxis.setCategoryMargin(0.25);
		ValueAxis valueAxis;
		if (logScale) {
			// Whole decades around the values, so that bars start at a round number.
			double smallest = Double.MAX_VALUE;
			double largest = Double.MIN_VALUE;
			for (int row = 0; row < dataset.getRowCount(); row++) {
				for (int column = 0; column < dataset.getColumnCount(); column++) {
					Number value = dataset.getValue(row, column);
					if (value != null && value.doubleValue() > 0) {
						smallest = Math.min(smallest, value.doubleValue());
						largest = Math.max(largest, value.doubleValue());
					}
				}
			}
			LogAxis log = new LogAxis(valueAxisLabel);
			log.setBase(10);
			log.setTickUnit(new NumberTickUnit(1.0), false, true);
			log.setNumberFormatOverride(decimalFormat("#,##0.##"));
			if (smallest <= largest) {
				log.setRange(Math.pow(10, Math.floor(Math.log10(smallest))),
						Math.pow(10, Math.ceil(Math.log10(largest * 1.3))));
			}
			valueAxis = log;
		}
		else {
			NumberAxis linear = new NumberAxis(valueAxisLabel);
			linear.setNumberFormatOverride(decimalFormat("#,##0.##"));
			valueAxis = linear;
		}
		valueAxis.setUpperMargin(0.15);
		BarRenderer renderer = new BarRenderer();
		renderer.setBarPainter(new StandardBarPainter());
		renderer.setShadowVisible(false);
		renderer.setItemMargin(0.05);
		renderer
			.setDefaultItemLabelGenerator(new StandardCategoryItemLabelGenerator("{2}", decimalFormat(valueFormat)));
		renderer.setDefaultItemLabelsVisible(true);
		renderer.setDefaultItemLabelFont(new Font(Font.SANS_SERIF, Font.PLAIN, 10));
		renderer.setDefaultPositiveItemLabelPosition(
				new ItemLabelPosition(ItemLabelAnchor.OUTSIDE3, TextAnchor.CENTER_LEFT));
		for (int i = 0; i < SERIES_PAINTS.length; i++) {
			renderer.setSeriesPaint(i, SERIES_PAINTS[i]);
		}
		CategoryPlot plot = new CategoryPlot(dataset, categoryAxis, valueAxis, renderer);
		plot.setOrientation(PlotOrientation.HORIZONTAL);
		plot.setRangeAxisLocation(AxisLocation.BOTTOM_OR_LEFT);
		plot.setBackgroundPaint(Color.WHITE);
		plot.setRangeGridlinePaint(Color.LIGHT_GRAY);
		JFreeChart chart = new JFreeChart(title, new Font(Font.SANS_SERIF, Font.BOLD, 16), plot, true);
		chart.setBackgroundPaint(Color.WHITE);
		chart.setPadding(new RectangleInsets(6, 6, 6, 30));
		if (section != null) {
			chart.addSubtitle(new TextTitle(section.heading(), new Font(Font.SANS_SERIF, Font.PLAIN, 12)));
		}
		return chart;
	}

	private static void marker(JFreeChart chart, double value, String label) {
		ValueMarker marker = new ValueMarker(value, Color.DARK_GRAY,
				new BasicStroke(1.5f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10, new float[] { 6, 4 }, 0));
		marker.setLabel(label);
		marker.setLabelFont(new Font(Font.SANS_SERIF, Font.ITALIC, 11));
		CategoryPlot plot = chart.getCategoryPlot();
		plot.addRangeMarker(marker);
		// A marker does not widen the axis by itself: the floor can be above every bar.
		ValueAxis axis = plot.getRangeAxis();
		if (axis.getUpperBound() < value * 1.1) {
			axis.setUpperBound(value * 1.15);
		}
		// The label goes on the side of the line that has room for it.
		double lower = axis.getLowerBound();
		double upper = axis.getUpperBound();
		double along = (axis instanceof LogAxis) ? Math.log(value / lower) / Math.log(upper / lower)
				: (value - lower) / (upper - lower);
		marker.setLabelAnchor((along > 0.5) ? RectangleAnchor.TOP_LEFT : RectangleAnchor.TOP_RIGHT);
		marker.setLabelTextAnchor((along > 0.5) ? TextAnchor.TOP_RIGHT : TextAnchor.TOP_LEFT);
	}

	private static String format(double value, String pattern) {
		return decimalFormat(pattern).format(value);
	}

	private static DecimalFormat decimalFormat(String pattern) {
		return new DecimalFormat(pattern, DecimalFormatSymbols.getInstance(Locale.ROOT));
	}

	/**
	 * A chart and the file it goes to.
	 *
	 * @param fileName the file's name
	 * @param chart the chart
	 * @param categories how many categories (contenders) it shows
	 * @param series how many bars each category has
	 */
	record Chart(String fileName, JFreeChart chart, int categories, int series) {

		/**
		 * The dataset the chart draws.
		 * @return the dataset
		 */
		DefaultCategoryDataset dataset() {
			return (DefaultCategoryDataset) this.chart.getCategoryPlot().getDataset();
		}

		/**
		 * A height that gives every bar room for its label.
		 * @return pixels
		 */
		int height() {
			return Math.max(360, 170 + this.categories * (this.series * 17 + 16));
		}

	}

}
