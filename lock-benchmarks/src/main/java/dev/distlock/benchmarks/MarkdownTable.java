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

/**
 * A Markdown table, rendered with padded columns so that it also reads well as plain
 * text.
 */
final class MarkdownTable {

	private final List<String> headers;

	private final List<List<String>> rows = new ArrayList<>();

	MarkdownTable(String... headers) {
		this.headers = List.of(headers);
	}

	MarkdownTable row(Object... cells) {
		if (cells.length != this.headers.size()) {
			throw new IllegalArgumentException("Expected " + this.headers.size() + " cells, got " + cells.length);
		}
		List<String> row = new ArrayList<>();
		for (Object cell : cells) {
			row.add(String.valueOf(cell));
		}
		this.rows.add(row);
		return this;
	}

	int size() {
		return this.rows.size();
	}

	String render() {
		int[] widths = new int[this.headers.size()];
		for (int i = 0; i < widths.length; i++) {
			widths[i] = Math.max(3, this.headers.get(i).length());
			for (List<String> row : this.rows) {
				widths[i] = Math.max(widths[i], row.get(i).length());
			}
		}
		StringBuilder out = new StringBuilder();
		line(out, this.headers, widths);
		List<String> rule = new ArrayList<>();
		for (int width : widths) {
			rule.add("-".repeat(width));
		}
		line(out, rule, widths);
		this.rows.forEach((row) -> line(out, row, widths));
		return out.toString();
	}

	private static void line(StringBuilder out, List<String> cells, int[] widths) {
		out.append('|');
		for (int i = 0; i < cells.size(); i++) {
			out.append(' ').append(pad(cells.get(i), widths[i])).append(" |");
		}
		out.append('\n');
	}

	private static String pad(String cell, int width) {
		return cell + " ".repeat(width - cell.length());
	}

	/** Microseconds from nanoseconds, one decimal. */
	static String micros(double nanos) {
		return String.format(Locale.ROOT, "%.1f", nanos / 1_000);
	}

	/** A number with the given decimals. */
	static String number(double value, int decimals) {
		return String.format(Locale.ROOT, "%,." + decimals + "f", value);
	}

}
