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

package dev.distlock.autoconfigure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.jayway.jsonpath.JsonPath;
import org.junit.jupiter.api.Test;

import org.springframework.util.ClassUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The properties table of {@code docs/configuration.md} against the configuration
 * metadata that {@code spring-boot-configuration-processor} generates: every
 * {@code distlock.*} property is described in both, with the same default and
 * description, so that neither can drift; and every {@code distlock.*} name that the
 * README, the pages under {@code docs/} and the sample's README give in code is a
 * property or a meter, so that a misspelt or renamed property cannot stay on a page.
 */
class ConfigurationPropertiesDocumentationTests {

	private static final Path CONFIGURATION_PAGE = Path.of("..", "docs", "configuration.md");

	private static final Path METADATA = Path.of("target", "classes", "META-INF", "spring-configuration-metadata.json");

	private static final Pattern ROW = Pattern.compile("^\\| `([^`]+)` \\| (?:`([^`]*)`)? ?\\| (.+) \\|$");

	private static final Path OBSERVABILITY_PAGE = Path.of("..", "docs", "observability.md");

	/** A row of the meters table: the meter's name and its type. */
	private static final Pattern METER_ROW = Pattern
		.compile("^\\| `(distlock\\.[a-z.]+)` \\| (?:timer|long task timer|counter|gauge) \\|.*");

	/** A name in code that starts with {@code distlock.}, up to a value or the end. */
	private static final Pattern NAMED = Pattern.compile("`(distlock\\.[A-Za-z0-9.<>*\\[\\]-]*[A-Za-z0-9>*\\]])");

	/**
	 * Names that the pages give although they are neither properties nor meters: the
	 * domain of the problem types, and the meters of earlier versions, named where the
	 * page says what replaced them.
	 */
	private static final Set<String> OTHER_NAMES = Set.of("distlock.dev", "distlock.acquire", "distlock.execution");

	@Test
	void everyPropertyHasADescriptionInTheMetadata() throws IOException {
		assertThat(metadata()).isNotEmpty()
			.allSatisfy(
					(name, property) -> assertThat(property.description()).as("description of %s", name).isNotBlank());
	}

	@Test
	void configurationPageListsEveryPropertyWithItsDefaultAndDescription() throws IOException {
		Map<String, Property> documented = configurationPage();
		Map<String, Property> generated = metadata();
		assertThat(documented.keySet()).as("properties in the table of %s", CONFIGURATION_PAGE)
			.containsExactlyElementsOf(generated.keySet());
		generated.forEach((name, property) -> {
			assertThat(documented.get(name).defaultValue()).as("default of %s", name)
				.isEqualTo(property.defaultValue());
			assertThat(documented.get(name).description()).as("description of %s", name)
				.isEqualTo(property.description());
		});
	}

	@Test
	void everyDistlockNameThePagesGiveIsAPropertyOrAMeter() throws IOException {
		Set<String> properties = new HashSet<>(
				JsonPath.read(Files.readString(METADATA), "$.properties[?(@.name =~ /distlock\\..*/)].name"));
		Set<String> meters = new HashSet<>();
		for (String line : Files.readAllLines(OBSERVABILITY_PAGE)) {
			Matcher row = METER_ROW.matcher(line);
			if (row.matches()) {
				meters.add(row.group(1));
			}
		}
		assertThat(meters).as("meters in the table of %s", OBSERVABILITY_PAGE).contains("distlock.hold");
		List<String> unknown = new ArrayList<>();
		for (Path page : pages()) {
			Matcher named = NAMED.matcher(Files.readString(page));
			while (named.find()) {
				String name = named.group(1);
				boolean known = properties.contains(name) || meters.contains(name) || OTHER_NAMES.contains(name)
						|| name.endsWith(".*") || name.startsWith("distlock.locks.");
				if (!known) {
					unknown.add(name + " in " + page);
				}
			}
		}
		assertThat(unknown).as("names that are neither properties nor meters").isEmpty();
	}

	@Test
	void renamedPropertyPointsToItsReplacement() throws IOException {
		List<Map<String, Object>> renamed = JsonPath.read(Files.readString(METADATA),
				"$.properties[?(@.name == 'distlock.waiting.max-local-hand-offs')].deprecation");
		assertThat(renamed).singleElement()
			.satisfies((deprecation) -> assertThat(deprecation).containsEntry("level", "error")
				.containsEntry("replacement", "distlock.waiting.max-local-passes"));
		assertThat(metadata()).containsKey("distlock.waiting.max-local-passes");
	}

	@Test
	void enumPropertiesHaveValueHints() throws IOException {
		String json = Files.readString(METADATA);
		List<Map<String, Object>> properties = JsonPath.read(json, "$.properties[?(@.name =~ /distlock\\..*/)]");
		List<String> hinted = JsonPath.read(json, "$.hints[*].name");
		for (Map<String, Object> property : properties) {
			String type = (String) property.get("type");
			if (type != null && ClassUtils.isPresent(type, null) && ClassUtils.resolveClassName(type, null).isEnum()) {
				assertThat(hinted).as("value hints of %s", property.get("name"))
					.contains((String) property.get("name"));
			}
		}
	}

	private static Map<String, Property> metadata() throws IOException {
		List<Map<String, Object>> properties = JsonPath.read(Files.readString(METADATA),
				"$.properties[?(@.name =~ /distlock\\..*/)]");
		Map<String, Property> byName = new LinkedHashMap<>();
		properties.stream()
			.filter((property) -> !(property.get("deprecation") instanceof Map<?, ?> deprecation
					&& "error".equals(deprecation.get("level"))))
			.sorted((a, b) -> ((String) a.get("name")).compareTo((String) b.get("name")))
			.forEach((property) -> byName.put((String) property.get("name"),
					new Property(Objects.toString(property.get("defaultValue"), ""),
							Objects.toString(property.get("description"), ""))));
		return byName;
	}

	private static Map<String, Property> configurationPage() throws IOException {
		String page = Files.readString(CONFIGURATION_PAGE);
		int start = page.indexOf("\n## Properties\n");
		assertThat(start).as("section 'Properties' of %s", CONFIGURATION_PAGE).isNotNegative();
		int end = page.indexOf("\n## ", start + 1);
		String section = page.substring(start, (end > 0) ? end : page.length());
		Map<String, Property> byName = new LinkedHashMap<>();
		for (String line : section.lines().toList()) {
			Matcher row = ROW.matcher(line);
			if (row.matches()) {
				byName.put(row.group(1), new Property(Objects.toString(row.group(2), ""), row.group(3)));
			}
		}
		return byName;
	}

	private static List<Path> pages() throws IOException {
		List<Path> pages = new ArrayList<>(
				List.of(Path.of("..", "README.md"), Path.of("..", "sample-app", "README.md")));
		try (Stream<Path> docs = Files.list(Path.of("..", "docs"))) {
			docs.filter((page) -> page.toString().endsWith(".md")).sorted().forEach(pages::add);
		}
		return pages;
	}

	private record Property(String defaultValue, String description) {

	}

}
