create table queue_entry (
	id bigint auto_increment primary key,
	gender varchar(8) not null,
	position int not null
);
