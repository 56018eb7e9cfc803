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

package dev.distlock.redis;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Redis ACL rules the documentation gives are those {@link MisconfigurationTests} and
 * {@link ClusterAclTests} run under (those tests add {@code reset}, so that the user is
 * set anew), so that a rule on a page is one a test has shown to be enough.
 */
class DocumentedAclRulesTests {

	private static final Path CONFIGURATION_PAGE = Path.of("..", "docs", "configuration.md");

	private static final Path CLUSTER_PAGE = Path.of("..", "docs", "cluster-and-sentinel.md");

	@Test
	void singleServerRuleIsTheOneMisconfigurationTestsRunsUnder() throws IOException {
		assertThat(ruleLines(CONFIGURATION_PAGE)).containsExactly(documented(MisconfigurationTests.DOCUMENTED_RULE));
	}

	@Test
	void clusterRuleIsTheOneClusterAclTestsRunsUnder() throws IOException {
		assertThat(ruleLines(CLUSTER_PAGE)).containsExactly(documented(ClusterAclTests.DOCUMENTED_RULE));
	}

	private static String documented(String testedRule) {
		assertThat(testedRule).startsWith("SETUSER app reset ");
		return "ACL " + testedRule.replace("SETUSER app reset ", "SETUSER app ");
	}

	private static List<String> ruleLines(Path page) throws IOException {
		return Files.readAllLines(page)
			.stream()
			.map(String::trim)
			.filter((line) -> line.startsWith("ACL SETUSER"))
			.toList();
	}

}
