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
 * Without any configuration it starts an embedded Redis server and an in-memory H2
 * database. With the {@code --demo} argument it instead runs {@link DemoLauncher the
 * demo}: two instances under concurrent load, a report, and an exit status that says
 * whether everything stayed consistent. Both the embedded Redis and the demo need the
 * development-only {@code lock-test-support}, which {@code spring-boot:run} has on its
 * class path and the application jar leaves out: the jar needs a configured Redis
 * ({@code spring.data.redis.*}).
 */
@SpringBootApplication
public class SampleApplication {

	/**
	 * Starts the service, or the demo when the arguments contain {@code --demo}.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		if (DemoLauncher.isRequested(args)) {
			System.exit(DemoLauncher.run(args));
		}
		SpringApplication.run(SampleApplication.class, args);
	}

	@Bean
	Clock clock() {
		return Clock.systemUTC();
	}

}
