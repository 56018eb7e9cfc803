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

import java.util.Map;

/**
 * Counts the commands Redis executes during each block of scenario 2, from the servers'
 * own counters ({@code INFO commandstats}, commands run inside scripts included): on one
 * server from that server, on a cluster from every node.
 */
interface BlockCommands {

	/**
	 * Reads the counters before a block.
	 */
	void before();

	/**
	 * Reads the counters after a block.
	 * @param contender the name of the contender the block measured
	 * @return calls by command since {@link #before()}, on the server or summed over the
	 * cluster's masters (replicas only repeat the masters' writes), without the commands
	 * the harness itself sends while counting
	 */
	Map<String, Long> after(String contender);

}
