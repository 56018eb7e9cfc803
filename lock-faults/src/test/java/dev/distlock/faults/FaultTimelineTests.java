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

package dev.distlock.faults;

import java.awt.image.BufferedImage;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import javax.imageio.ImageIO;

import org.jfree.data.category.DefaultIntervalCategoryDataset;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link FaultTimeline} draws what a scenario recorded: one series per party, one
 * category per run with controls last, times in ms from each run's fault; its PNG is an
 * image and its CSV holds the same figures. Starts no process.
 */
class FaultTimelineTests {

	private static final long MS = 1_000_000;

	private static final long FAULT = 5_000 * MS;

	@Test
	void eachPartyIsASeriesAndEachRunACategoryInMillisecondsFromItsFault() {
		DefaultIntervalCategoryDataset dataset = timeline().dataset();
		assertThat(dataset.getRowKeys()).containsExactly("key on the server", "holder believes it holds",
				"other instance holds");
		assertThat(dataset.getColumnKeys()).containsExactly("renewed lease", "control: naive holder");
		assertThat(dataset.getStartValue("key on the server", "renewed lease").doubleValue()).isEqualTo(-1200);
		assertThat(dataset.getEndValue("key on the server", "renewed lease").doubleValue()).isEqualTo(1800);
		assertThat(dataset.getEndValue("holder believes it holds", "renewed lease").doubleValue()).isEqualTo(1757.5);
		assertThat(dataset.getStartValue("other instance holds", "control: naive holder").doubleValue())
			.isEqualTo(1802);
		assertThat(dataset.getEndValue("holder believes it holds", "control: naive holder").doubleValue())
			.isEqualTo(2500);
	}

	@Test
	void anUnknownPartyIsRefusedWithThePartiesItKnows() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> timeline().add("renewed lease", "proxy", FAULT, FAULT, FAULT))
			.withMessageContaining("'proxy'")
			.withMessageContaining("[key on the server, holder believes it holds, other instance holds]");
	}

	@Test
	void writesAPngAndTheFiguresAsCsv(@TempDir Path directory) throws IOException {
		Path png = timeline().write(directory);
		assertThat(png).isEqualTo(directory.resolve("blackhole.png"));
		BufferedImage image = ImageIO.read(png.toFile());
		assertThat(image).isNotNull();
		assertThat(image.getWidth()).isEqualTo(FaultTimeline.WIDTH);
		assertThat(Files.readAllLines(directory.resolve("blackhole.csv"), StandardCharsets.UTF_8)).contains(
				"run,party,start ms,end ms", "\"renewed lease\",\"holder believes it holds\",-1200.0,1757.5",
				"\"control: naive holder\",\"other instance holds\",1802.0,2302.0");
	}

	private static FaultTimeline timeline() {
		return new FaultTimeline("blackhole", "Blackhole", "blackhole begins", "key on the server",
				"holder believes it holds", "other instance holds")
			.add("control: naive holder", "other instance holds", FAULT, FAULT + 1802 * MS, FAULT + 2302 * MS)
			.add("control: naive holder", "holder believes it holds", FAULT, FAULT - 500 * MS, FAULT + 2500 * MS)
			.add("renewed lease", "key on the server", FAULT, FAULT - 1200 * MS, FAULT + 1800 * MS)
			.add("renewed lease", "holder believes it holds", FAULT, FAULT - 1200 * MS, FAULT + 1757_500_000L)
			.add("renewed lease", "other instance holds", FAULT, FAULT + 1801 * MS, FAULT + 2301 * MS);
	}

}
