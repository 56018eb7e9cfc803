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

package dev.distlock.compat;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;

/**
 * An application as a user writes it with {@code lock-starter}, Spring MVC and Actuator:
 * locked methods in {@link StockService} and {@link ReactiveStockService}, served by
 * {@link StockController}. Built and run once per supported Spring Boot line.
 */
@SpringBootApplication
public class CompatApplication {

	/**
	 * Starts the application.
	 * @param args the command line arguments
	 */
	public static void main(String[] args) {
		SpringApplication.run(CompatApplication.class, args);
	}

}
