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

package dev.distlock.sample;

import java.time.Clock;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.context.annotation.Bean;

import dev.distlock.sample.demo.DemoLauncher;

/**
 * The distlock sample service: stock per SKU in Redis, check-in queue numbers in a
 * relational database and a scheduled job that closes expired orders, each guarded by a
 * distributed lock.
 * <p>
 * It needs a configured Redis ({@code spring.data.redis.*}) and, without any database
 * configured, uses an in-memory H2 database. The embedded Redis server is only on the
 * development class path: {@code TestSampleApplication} in {@code src/test}, which
 * {@code spring-boot:test-run} starts, runs this application with one, and runs
 * {@link DemoLauncher the demo} ({@code --demo}: two instances under concurrent load, a
 * report, and an exit status that says whether everything stayed consistent) on one.
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * Starts the service; with {@code --demo}, says how to run the demo, which needs the
	 * embedded Redis of the development class path, and exits with status {@code 2}.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		if (DemoLauncher.isRequested(args)) {
			System.exit(DemoLauncher.refuse(System.err));
		}
		SpringApplication.run(SampleApplication.class, args);
	}

	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

}
