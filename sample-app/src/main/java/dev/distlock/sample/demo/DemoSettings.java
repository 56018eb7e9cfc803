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

package dev.distlock.sample.demo;

/**
 * How much load the demo generates. The defaults fire 3,500 requests and finish well
 * within a minute on two cores; each can be changed with an argument such as
 * {@code --demo.check-ins=500}.
 *
 * @param skus how many SKUs get stock
 * @param stockPerSku the initial stock of each SKU
 * @param decrements how many {@code POST /skus/{id}/stock/decrement} requests to send,
 * spread over the SKUs; more than the total stock, so that the stock runs out
 * @param checkIns how many {@code POST /check-in-queue} requests to send
 * @param repeatedPhones how many of the check-ins reuse the phone number of another one
 * @param concurrency how many requests are in flight at once
 */
public record DemoSettings(int skus, int stockPerSku, int decrements, int checkIns, int repeatedPhones,
		int concurrency) {

	/**
	 * The default load.
	 * @return the settings
	 */
	public static DemoSettings defaults() {
		return new DemoSettings(4, 400, 2000, 1500, 100, 64);
	}

	/**
	 * The default load, changed by {@code --demo.<name>=<number>} arguments:
	 * {@code skus}, {@code stock-per-sku}, {@code decrements}, {@code check-ins},
	 * {@code repeated-phones}, {@code concurrency}.
	 * @param args the command line arguments
	 * @return the settings
	 * @throws IllegalArgumentException for an unknown name or a value that is not a
	 * positive number
	 */
	public static DemoSettings fromArguments(String[] args) {
		DemoSettings settings = defaults();
		for (String arg : args) {
			if (arg.startsWith("--demo.")) {
				int equals = arg.indexOf('=');
				if (equals < 0) {
					throw new IllegalArgumentException("Expected --demo.<name>=<number>, got " + arg);
				}
				settings = settings.with(arg.substring("--demo.".length(), equals), arg.substring(equals + 1));
			}
		}
		return settings;
	}

	private DemoSettings with(String name, String text) {
		int value = Integer.parseInt(text);
		if (value < 0 || (value == 0 && !name.equals("repeated-phones"))) {
			throw new IllegalArgumentException("--demo." + name + " must be positive, was " + value);
		}
		return switch (name) {
			case "skus" -> new DemoSettings(value, this.stockPerSku, this.decrements, this.checkIns,
					this.repeatedPhones, this.concurrency);
			case "stock-per-sku" -> new DemoSettings(this.skus, value, this.decrements, this.checkIns,
					this.repeatedPhones, this.concurrency);
			case "decrements" -> new DemoSettings(this.skus, this.stockPerSku, value, this.checkIns,
					this.repeatedPhones, this.concurrency);
			case "check-ins" -> new DemoSettings(this.skus, this.stockPerSku, this.decrements, value,
					this.repeatedPhones, this.concurrency);
			case "repeated-phones" ->
				new DemoSettings(this.skus, this.stockPerSku, this.decrements, this.checkIns, value, this.concurrency);
			case "concurrency" -> new DemoSettings(this.skus, this.stockPerSku, this.decrements, this.checkIns,
					this.repeatedPhones, value);
			default -> throw new IllegalArgumentException("Unknown demo setting --demo." + name);
		};
	}

	/**
	 * Total number of requests the demo sends.
	 * @return decrements plus check-ins
	 */
	public int requests() {
		return this.decrements + this.checkIns;
	}

}
