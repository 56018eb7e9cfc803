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

package dev.distlock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * No dead link in the documentation: every relative link of {@code README.md},
 * {@code docs/*.md}, {@code sample-app/README.md} and {@code lock-faults/README.md} leads
 * to a file that exists, and every {@code #anchor} to a heading of its page, named by
 * GitHub's rules (lower case, spaces to hyphens, punctuation dropped, a repeated heading
 * numbered {@code -1}, {@code -2}, ...). The pointers that messages, javadoc and comments
 * give ({@code docs/configuration.md#keys-channels-and-redis-acl}) lead to a heading too;
 * the README links to every page under {@code docs/} and keeps the two commands it
 * promises.
 */
class DocumentationLinksTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final Pattern HEADING = Pattern.compile("^(#{1,6})\\s+(.+?)\\s*#*\\s*$");

	private static final Pattern INLINE_LINK = Pattern.compile("!?\\[([^\\]]*)\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");

	private static final Pattern REFERENCE_DEFINITION = Pattern.compile("^\\s{0,3}\\[[^\\]]+\\]:\\s+(\\S+)");

	private static final Pattern CODE_SPAN = Pattern.compile("(`+).*?\\1");

	private static final Pattern SOURCE_POINTER = Pattern
		.compile("(?<![\\w/.-])(docs/[a-z0-9-]+\\.md)(?:#([a-z0-9-]+))?");

	private static final Set<String> SOURCE_EXTENSIONS = Set.of(".java", ".kt", ".properties", ".yml", ".yaml", ".lua",
			".xml");

	@Test
	void everyRelativeLinkLeadsToAnExistingFileAndHeading() {
		List<String> dead = new ArrayList<>();
		for (Path page : pages()) {
			for (Link link : links(page)) {
				String problem = problem(page, link.target());
				if (problem != null) {
					dead.add("%s:%d: %s (%s)".formatted(ROOT.relativize(page), link.line(), link.target(), problem));
				}
			}
		}
		assertThat(dead).as("dead links").isEmpty();
	}

	@Test
	void pointersInMessagesJavadocAndCommentsLeadToAHeading() throws IOException {
		List<String> dead = new ArrayList<>();
		int pointers = 0;
		for (Path source : sources()) {
			List<String> lines = Files.readAllLines(source);
			for (int i = 0; i < lines.size(); i++) {
				Matcher pointer = SOURCE_POINTER.matcher(lines.get(i));
				while (pointer.find()) {
					pointers++;
					String target = pointer.group(1) + ((pointer.group(2) != null) ? "#" + pointer.group(2) : "");
					String problem = problem(ROOT.resolve("README.md"), target);
					if (problem != null) {
						dead.add("%s:%d: %s (%s)".formatted(ROOT.relativize(source), i + 1, target, problem));
					}
				}
			}
		}
		assertThat(pointers).as("pointers to docs/ found in the sources").isPositive();
		assertThat(dead).as("dead pointers").isEmpty();
	}

	@Test
	void readmeLinksToEveryPageUnderDocs() throws IOException {
		Set<Path> linked = new LinkedHashSet<>();
		Path readme = ROOT.resolve("README.md");
		for (Link link : links(readme)) {
			String path = link.target().split("#", 2)[0];
			if (!path.isEmpty() && !isExternal(link.target())) {
				linked.add(readme.getParent().resolve(path).normalize());
			}
		}
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			List<Path> pages = docs.filter((file) -> file.toString().endsWith(".md")).sorted().toList();
			assertThat(pages).as("pages under docs/").hasSizeGreaterThanOrEqualTo(12);
			assertThat(linked).as("pages the README links to").containsAll(pages);
		}
	}

	@Test
	void readmeKeepsTheQuickStartAndTheCommandCiRuns() throws IOException {
		String readme = Files.readString(ROOT.resolve("README.md"));
		List<String> ciCommands = Files.readAllLines(ROOT.resolve(".ci/run"))
			.stream()
			.filter((line) -> line.startsWith("./mvnw"))
			.toList();
		assertThat(ciCommands).as("commands of .ci/run").containsExactly("./mvnw -B verify");
		assertThat(readme).contains("```shell\n./mvnw -pl sample-app -am spring-boot:test-run\n```")
			.contains("```shell\n" + ciCommands.get(0) + "\n```");
	}

	@Test
	void anchorsFollowGitHubRules() {
		assertThat(anchors(List.of("# Using distlock", "## With `@Transactional`",
				"## Replica acknowledgement: `distlock.replication.min-replicas-acked`",
				"### Settings in `application.yml`", "## Keys, channels and Redis ACL",
				"### Fail closed at the edges (issues 11–13): before and after", "```", "# not a heading", "```",
				"## Results", "## Results", "#### Reactive 1. Uncontended: 10000 keys, 1 operation in flight")))
			.containsExactly("using-distlock", "with-transactional",
					"replica-acknowledgement-distlockreplicationmin-replicas-acked", "settings-in-applicationyml",
					"keys-channels-and-redis-acl", "fail-closed-at-the-edges-issues-1113-before-and-after", "results",
					"results-1", "reactive-1-uncontended-10000-keys-1-operation-in-flight");
	}

	/**
	 * Why a link does not resolve from a page, or {@code null} when it does.
	 */
	private static String problem(Path page, String target) {
		if (isExternal(target)) {
			return null;
		}
		String[] parts = target.split("#", 2);
		Path file = parts[0].isEmpty() ? page : page.getParent().resolve(parts[0]).normalize();
		if (!file.startsWith(ROOT)) {
			return "outside the repository";
		}
		if (!Files.exists(file)) {
			return "no such file";
		}
		if (parts.length == 1) {
			return null;
		}
		if (!file.toString().endsWith(".md")) {
			return "an anchor into a file that is not Markdown";
		}
		List<String> anchors = anchors(read(file));
		return anchors.contains(parts[1]) ? null : "no such heading; headings are " + anchors;
	}

	private static boolean isExternal(String target) {
		return target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
	}

	/**
	 * The anchors GitHub gives the headings of a page, in order.
	 */
	private static List<String> anchors(List<String> lines) {
		List<String> anchors = new ArrayList<>();
		Map<String, Integer> seen = new HashMap<>();
		boolean fenced = false;
		for (String line : lines) {
			if (isFence(line)) {
				fenced = !fenced;
				continue;
			}
			Matcher heading = HEADING.matcher(line);
			if (!fenced && heading.matches()) {
				String slug = slug(heading.group(2));
				int count = seen.merge(slug, 1, Integer::sum);
				anchors.add((count == 1) ? slug : slug + "-" + (count - 1));
			}
		}
		return anchors;
	}

	/**
	 * GitHub's anchor of a heading: link texts kept, lower case, every character but
	 * letters, digits, marks, underscores, hyphens and spaces dropped, spaces to hyphens.
	 */
	private static String slug(String heading) {
		String text = INLINE_LINK.matcher(heading).replaceAll("$1");
		return text.toLowerCase(Locale.ROOT).replaceAll("[^\\p{L}\\p{N}\\p{M}\\p{Pc} -]", "").replace(' ', '-');
	}

	private static List<Link> links(Path page) {
		List<Link> links = new ArrayList<>();
		boolean fenced = false;
		List<String> lines = read(page);
		for (int i = 0; i < lines.size(); i++) {
			String line = lines.get(i);
			if (isFence(line)) {
				fenced = !fenced;
				continue;
			}
			if (fenced) {
				continue;
			}
			String text = CODE_SPAN.matcher(line).replaceAll("");
			Matcher inline = INLINE_LINK.matcher(text);
			while (inline.find()) {
				links.add(new Link(i + 1, inline.group(2)));
			}
			Matcher definition = REFERENCE_DEFINITION.matcher(text);
			if (definition.find()) {
				links.add(new Link(i + 1, definition.group(1)));
			}
		}
		return links;
	}

	private static boolean isFence(String line) {
		String trimmed = line.trim();
		return trimmed.startsWith("```") || trimmed.startsWith("~~~");
	}

	private static List<Path> pages() {
		List<Path> pages = new ArrayList<>(List.of(ROOT.resolve("README.md"), ROOT.resolve("sample-app/README.md"),
				ROOT.resolve("lock-faults/README.md")));
		try (Stream<Path> docs = Files.list(ROOT.resolve("docs"))) {
			docs.filter((file) -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		return pages;
	}

	/**
	 * The files under the {@code src} directories of every module, build output and
	 * hidden directories left out.
	 */
	private static List<Path> sources() throws IOException {
		List<Path> sources = new ArrayList<>();
		Files.walkFileTree(ROOT, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult preVisitDirectory(Path directory, BasicFileAttributes attributes) {
				String name = directory.getFileName().toString();
				boolean skipped = !directory.equals(ROOT) && (name.equals("target") || name.startsWith("."));
				return skipped ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
				String name = file.getFileName().toString();
				if (ROOT.relativize(file).toString().contains("src/")
						&& SOURCE_EXTENSIONS.stream().anyMatch(name::endsWith)) {
					sources.add(file);
				}
				return FileVisitResult.CONTINUE;
			}

		});
		sources.sort(null);
		return sources;
	}

	private static List<String> read(Path file) {
		try {
			return Files.readAllLines(file);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private record Link(int line, String target) {

	}

}
