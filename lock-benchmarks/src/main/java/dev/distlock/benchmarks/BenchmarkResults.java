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

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Markdown a benchmark run prints ({@code ./bench/run > results.md}), or a page that
 * quotes it ({@code docs/benchmarks.md}), read back as sections: each heading with the
 * tables and the lines of text under it, up to the next heading. {@link BenchmarkCharts}
 * draws its charts from these, so that a chart can be made from results that were
 * committed long ago as well as from a run that just ended.
 */
final class BenchmarkResults {

	private static final Pattern LEADING_NUMBER = Pattern.compile("^-?[0-9][0-9,]*(\\.[0-9]+)?");

	private final List<Section> sections;

	private BenchmarkResults(List<Section> sections) {
		this.sections = sections;
	}

	/**
	 * Reads Markdown: every line starting with {@code #} opens a section, every run of
	 * lines starting with {@code |} is a table (its second line the rule under the
	 * headers), every other non-blank line is text.
	 * @param markdown the Markdown
	 * @return the sections, in order
	 */
	static BenchmarkResults parse(String markdown) {
		List<Section> sections = new ArrayList<>();
		Section current = new Section("", new ArrayList<>(), new ArrayList<>());
		List<String> tableLines = new ArrayList<>();
		for (String line : (markdown + "\n").split("\\R", -1)) {
			String trimmed = line.strip();
			if (trimmed.startsWith("|")) {
				tableLines.add(trimmed);
				continue;
			}
			if (!tableLines.isEmpty()) {
				current.tables().add(Table.of(tableLines));
				tableLines.clear();
			}
			if (trimmed.startsWith("#")) {
				sections.add(current);
				current = new Section(trimmed.replaceFirst("^#+\\s*", ""), new ArrayList<>(), new ArrayList<>());
			}
			else if (!trimmed.isEmpty()) {
				current.text().add(trimmed);
			}
		}
		sections.add(current);
		return new BenchmarkResults(List.copyOf(sections));
	}

	/**
	 * The first section whose heading matches and that has a table.
	 * @param heading the pattern the heading must match from its start
	 * @return the section, if any
	 */
	Optional<Section> first(Pattern heading) {
		return this.sections.stream()
			.filter((section) -> heading.matcher(section.heading()).lookingAt() && !section.tables().isEmpty())
			.findFirst();
	}

	/**
	 * The number a cell starts with: {@code 21,735} is 21735, {@code 1243/1267 = 0.98} is
	 * 0.98 (the part after {@code =}), {@code 12.5 %} is 12.5, and a dash or anything
	 * else that is no number is {@code NaN}.
	 * @param cell the cell's text
	 * @return the number, or {@code NaN}
	 */
	static double number(String cell) {
		String text = cell.strip();
		int equals = text.lastIndexOf('=');
		if (equals >= 0) {
			text = text.substring(equals + 1).strip();
		}
		Matcher matcher = LEADING_NUMBER.matcher(text);
		return matcher.find() ? Double.parseDouble(matcher.group().replace(",", "")) : Double.NaN;
	}

	/**
	 * A heading with what follows it up to the next heading.
	 *
	 * @param heading the heading's text without the leading {@code #}s
	 * @param tables the tables, in order
	 * @param text the other non-blank lines, in order
	 */
	record Section(String heading, List<Table> tables, List<String> text) {

		/**
		 * The first table.
		 * @return the table
		 */
		Table table() {
			return this.tables.get(0);
		}

		/**
		 * The number that follows a phrase in the section's text, such as the floor under
		 * the contended table ({@code "2×PING p50 measured between the blocks, 173.2
		 * µs"}).
		 * @param pattern a pattern with one group that captures the number
		 * @return the number, if a line matches
		 */
		Optional<Double> numberAfter(Pattern pattern) {
			for (String line : this.text) {
				Matcher matcher = pattern.matcher(line);
				if (matcher.find()) {
					return Optional.of(number(matcher.group(1)));
				}
			}
			return Optional.empty();
		}

	}

	/**
	 * A Markdown table.
	 *
	 * @param headers the header cells
	 * @param rows the body's cells, row by row
	 */
	record Table(List<String> headers, List<List<String>> rows) {

		static Table of(List<String> lines) {
			List<String> headers = cells(lines.get(0));
			List<List<String>> rows = new ArrayList<>();
			for (String line : lines.subList(Math.min(2, lines.size()), lines.size())) {
				List<String> cells = cells(line);
				if (cells.size() != headers.size()) {
					throw new IllegalArgumentException("Table row '" + line + "' has " + cells.size()
							+ " cells, its headers " + headers.size() + " " + headers);
				}
				rows.add(cells);
			}
			return new Table(headers, List.copyOf(rows));
		}

		private static List<String> cells(String line) {
			String inner = line.substring(1, line.endsWith("|") ? line.length() - 1 : line.length());
			List<String> cells = new ArrayList<>();
			for (String cell : inner.split("\\|", -1)) {
				cells.add(cell.strip());
			}
			return List.copyOf(cells);
		}

		/**
		 * Whether the table has a column.
		 * @param header the header, compared ignoring case
		 * @return whether it has it
		 */
		boolean has(String header) {
			return this.headers.stream().anyMatch((candidate) -> candidate.equalsIgnoreCase(header));
		}

		/**
		 * A cell.
		 * @param row one of {@link #rows()}
		 * @param header the column's header, compared ignoring case
		 * @return the cell's text
		 * @throws IllegalArgumentException if there is no such column
		 */
		String cell(List<String> row, String header) {
			for (int i = 0; i < this.headers.size(); i++) {
				if (this.headers.get(i).equalsIgnoreCase(header)) {
					return row.get(i);
				}
			}
			throw new IllegalArgumentException("No column '" + header + "' in the table with columns " + this.headers
					+ ": the results are not in the format BenchmarkCharts reads");
		}

		/**
		 * A cell's number, as {@link BenchmarkResults#number(String)} reads it.
		 * @param row one of {@link #rows()}
		 * @param header the column's header
		 * @return the number, or {@code NaN}
		 */
		double number(List<String> row, String header) {
			return BenchmarkResults.number(cell(row, header));
		}

		@Override
		public String toString() {
			return String.format(Locale.ROOT, "table %s with %d rows", this.headers, this.rows.size());
		}

	}

}
