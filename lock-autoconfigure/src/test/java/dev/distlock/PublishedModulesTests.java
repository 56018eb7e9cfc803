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
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.parsers.ParserConfigurationException;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Element;
import org.w3c.dom.Node;
import org.xml.sax.SAXException;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The BOM {@code distlock-bom} stays in step with the build: it manages exactly the
 * published modules (every module of the root {@code pom.xml} that does not set
 * {@code maven.deploy.skip} to {@code true}), at the parent's version, and nothing else:
 * it has no parent, so that importing it brings no Spring Boot versions, and therefore
 * repeats the parent's metadata and release plugins, which must not drift apart.
 */
class PublishedModulesTests {

	private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();

	private static final String BOM = "distlock-bom";

	@Test
	void bomManagesEveryPublishedModuleAtTheBomsOwnVersion() throws Exception {
		Element bom = pom(BOM);
		List<String> published = new ArrayList<>();
		for (String module : modules()) {
			Element pom = pom(module);
			if (!"true".equals(text(pom, "properties", "maven.deploy.skip")) && !module.equals(BOM)) {
				published.add(text(pom, "artifactId"));
			}
		}
		assertThat(published).as("published modules").contains("lock-autoconfigure", "lock-starter");
		List<Element> managed = managedDependencies(bom);
		assertThat(managed).allSatisfy((dependency) -> {
			assertThat(text(dependency, "groupId")).isEqualTo("dev.distlock");
			assertThat(text(dependency, "version")).isEqualTo("${project.version}");
			assertThat(text(dependency, "scope")).isNull();
			assertThat(text(dependency, "type")).isNull();
		});
		assertThat(managed).extracting((dependency) -> text(dependency, "artifactId"))
			.as("the modules distlock-bom manages (add a published module there, or set maven.deploy.skip in its pom)")
			.containsExactlyInAnyOrderElementsOf(published);
	}

	@Test
	void parentManagesTheSameModulesAsTheBom() throws Exception {
		List<String> parent = new ArrayList<>();
		for (Element dependency : managedDependencies(root())) {
			if ("dev.distlock".equals(text(dependency, "groupId"))) {
				parent.add(text(dependency, "artifactId") + ":" + text(dependency, "version"));
			}
		}
		List<String> bom = managedDependencies(pom(BOM)).stream()
			.map((dependency) -> text(dependency, "artifactId") + ":" + text(dependency, "version"))
			.toList();
		assertThat(parent).containsExactlyInAnyOrderElementsOf(bom);
	}

	@Test
	void bomStandsAloneAtTheParentsCoordinates() throws Exception {
		Element bom = pom(BOM);
		Element root = root();
		assertThat(child(bom, "parent")).as("a parent of distlock-bom (its dependency management would leak)").isNull();
		assertThat(text(bom, "groupId")).isEqualTo(text(root, "groupId"));
		assertThat(text(bom, "version")).as("the version of distlock-bom (versions:set needs -DprocessAllModules)")
			.isEqualTo(text(root, "version"));
		assertThat(text(bom, "packaging")).isEqualTo("pom");
		assertThat(child(bom, "dependencies")).as("dependencies of distlock-bom").isNull();
	}

	@Test
	void bomRepeatsTheParentsMetadata() throws Exception {
		Element bom = pom(BOM);
		Element root = root();
		for (String name : List.of("url", "inceptionYear", "licenses", "developers", "scm", "issueManagement")) {
			assertThat(content(child(bom, name))).as("<%s> of distlock-bom", name).isNotEmpty();
			assertThat(content(child(bom, name))).as("<%s> of distlock-bom and of the parent", name)
				.isEqualTo(content(child(root, name)));
		}
	}

	@Test
	void bomIsBuiltAndReleasedWithTheParentsPluginsAndProfiles() throws Exception {
		Element bom = pom(BOM);
		Element root = root();
		for (String plugin : List.of("maven-gpg-plugin", "central-publishing-maven-plugin", "license-maven-plugin",
				"spring-javaformat-maven-plugin")) {
			assertThat(pluginVersion(bom, plugin)).as("version of %s in distlock-bom", plugin)
				.isNotNull()
				.isEqualTo(pluginVersion(root, plugin));
		}
		assertThat(profiles(bom).keySet()).containsExactlyInAnyOrderElementsOf(profiles(root).keySet());
		assertThat(content(child(profiles(bom).get("release-signing"), "activation")))
			.isEqualTo(content(child(profiles(root).get("release-signing"), "activation")));
		assertThat(text(bom, "properties", "gpg.skip")).isEqualTo(text(root, "properties", "gpg.skip"));
	}

	private static List<String> modules() throws Exception {
		List<String> modules = new ArrayList<>();
		for (Element module : children(child(root(), "modules"), "module")) {
			modules.add(module.getTextContent().trim());
		}
		assertThat(modules).as("modules of the root pom.xml").contains(BOM);
		return modules;
	}

	private static List<Element> managedDependencies(Element pom) {
		return children(child(child(pom, "dependencyManagement"), "dependencies"), "dependency");
	}

	/**
	 * The version a pom gives a plugin, in its plugin management or its build's plugins.
	 */
	private static String pluginVersion(Element pom, String artifactId) {
		Element build = child(pom, "build");
		List<Element> plugins = new ArrayList<>(children(child(child(build, "pluginManagement"), "plugins"), "plugin"));
		plugins.addAll(children(child(build, "plugins"), "plugin"));
		for (Element plugin : plugins) {
			if (artifactId.equals(text(plugin, "artifactId")) && text(plugin, "version") != null) {
				return text(plugin, "version");
			}
		}
		return null;
	}

	private static Map<String, Element> profiles(Element pom) {
		Map<String, Element> profiles = new LinkedHashMap<>();
		for (Element profile : children(child(pom, "profiles"), "profile")) {
			profiles.put(text(profile, "id"), profile);
		}
		return profiles;
	}

	private static Element root() throws Exception {
		return read(ROOT.resolve("pom.xml"));
	}

	private static Element pom(String module) throws Exception {
		return read(ROOT.resolve(module).resolve("pom.xml"));
	}

	private static Element read(Path pom) throws IOException, ParserConfigurationException, SAXException {
		assertThat(pom).exists();
		DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
		factory.setIgnoringComments(true);
		return factory.newDocumentBuilder().parse(Files.newInputStream(pom)).getDocumentElement();
	}

	/**
	 * The text of the element at the end of a path of child elements, or {@code null}
	 * when one of them is missing.
	 */
	private static String text(Element element, String... path) {
		Element current = element;
		for (String name : path) {
			current = child(current, name);
		}
		return (current != null) ? current.getTextContent().trim() : null;
	}

	/**
	 * An element's text with the whitespace between its child elements left out, so that
	 * the same content compares equal whatever its indentation.
	 */
	private static String content(Element element) {
		return (element != null) ? element.getTextContent().replaceAll("\\s*\\n\\s*", "|").trim() : "";
	}

	private static Element child(Element parent, String name) {
		List<Element> children = children(parent, name);
		return children.isEmpty() ? null : children.get(0);
	}

	private static List<Element> children(Element parent, String name) {
		List<Element> children = new ArrayList<>();
		if (parent != null) {
			for (Node node = parent.getFirstChild(); node != null; node = node.getNextSibling()) {
				if (node instanceof Element element && element.getTagName().equals(name)) {
					children.add(element);
				}
			}
		}
		return children;
	}

}
